import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { packageRootOf } from '@statecraft/adapter';

/**
 * This package's root directory, found by package name rather than from this module's own
 * location: the CLI is shipped as one bundle (packages/cli/dist/bundle), where `import.meta.url`
 * is the bundle's, not this module's. Resolving `@statecraft/adapter-codex/package.json`
 * works both unbundled (self-reference) and bundled (through the workspace's node_modules).
 */
function packageRoot(): string {
  return packageRootOf('@statecraft/adapter-codex', import.meta.url);
}

/** The bundled file's name; its sidecar manifest is `<file>.manifest.json` (R2.2). */
export const CODEX_ADAPTER_FILE = 'statecraft-adapter-codex.mjs';

/**
 * The absolute path of the bundled adapter executable: one file, so its content digest covers
 * every line it runs (R3.1). Built by `npm run build` (scripts/bundle.mjs).
 */
export function codexAdapterPath(): string {
  return join(packageRoot(), 'dist', 'bundle', CODEX_ADAPTER_FILE);
}

/** The Codex model-double scenario files (qualification/scenarios/codex/*.json) of this repository. */
export function scenariosDirectory(): string {
  return resolve(packageRoot(), '..', '..', 'qualification', 'scenarios', 'codex');
}

/** One scenario file by name. */
export function scenarioPath(name: string): string {
  return join(scenariosDirectory(), `${name}.json`);
}

/** The recorded native streams (testdata/stream/*.jsonl) and the fake `codex` that replays them. */
export function recordedStreamsDirectory(): string {
  return join(packageRoot(), 'testdata', 'stream');
}

export function replayCodexPath(): string {
  return join(packageRoot(), 'testdata', 'replay-codex.mjs');
}

/**
 * The pinned provider (devDependency `@openai/codex`), for tests and the suite: the package's
 * launcher `bin/codex.js`, which is what `node_modules/.bin/codex` links to.
 */
export function pinnedCodexPath(): string {
  // Resolved from this package's own package.json, as this package's devDependency, wherever the
  // calling code was bundled.
  const require = createRequire(join(packageRoot(), 'package.json'));
  return join(dirname(require.resolve('@openai/codex/package.json')), 'bin', 'codex.js');
}
