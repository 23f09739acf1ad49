import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { packageRootOf } from '@statecraft/adapter';

/**
 * This package's root directory, found by package name rather than from this module's own
 * location: the CLI is shipped as one bundle (packages/cli/dist/bundle), where `import.meta.url`
 * is the bundle's, not this module's. Resolving `@statecraft/adapter-claude-code/package.json`
 * works both unbundled (self-reference) and bundled (through the workspace's node_modules).
 */
function packageRoot(): string {
  return packageRootOf('@statecraft/adapter-claude-code', import.meta.url);
}

/**
 * The bundled file's name; its sidecar manifest is `<file>.manifest.json` (R2.2). CommonJS: Node
 * starts a classic script without its ESM loader, on every attempt.
 */
export const CLAUDE_CODE_ADAPTER_FILE = 'statecraft-adapter-claude-code.cjs';

/**
 * The absolute path of the bundled adapter executable: one file, so its content digest covers
 * every line it runs (R3.1). Built by `npm run build` (scripts/bundle.mjs).
 */
export function claudeCodeAdapterPath(): string {
  return join(packageRoot(), 'dist', 'bundle', CLAUDE_CODE_ADAPTER_FILE);
}

/** The model-double scenario files (qualification/scenarios/*.json) of this repository. */
export function scenariosDirectory(): string {
  return resolve(packageRoot(), '..', '..', 'qualification', 'scenarios');
}

/** One scenario file by name. */
export function scenarioPath(name: string): string {
  return join(scenariosDirectory(), `${name}.json`);
}

/** The recorded native streams (testdata/stream/*.jsonl) and the fake `claude` that replays them. */
export function recordedStreamsDirectory(): string {
  return join(packageRoot(), 'testdata', 'stream');
}

export function replayClaudePath(): string {
  return join(packageRoot(), 'testdata', 'replay-claude.mjs');
}

/** The pinned provider binary (devDependency `@anthropic-ai/claude-code`), for tests and the suite. */
export function pinnedClaudePath(): string {
  // Resolved from this package's own package.json, as this package's devDependency, wherever the
  // calling code was bundled.
  const require = createRequire(join(packageRoot(), 'package.json'));
  return join(dirname(require.resolve('@anthropic-ai/claude-code/package.json')), 'bin', 'claude.exe');
}
