import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** The bundled file's name; its sidecar manifest is `<file>.manifest.json` (R2.2). */
export const CLAUDE_CODE_ADAPTER_FILE = 'statecraft-adapter-claude-code.mjs';

/**
 * The absolute path of the bundled adapter executable: one file, so its content digest covers
 * every line it runs (R3.1). Built by `npm run build` (scripts/bundle.mjs).
 */
export function claudeCodeAdapterPath(): string {
  return resolve(here, 'bundle', CLAUDE_CODE_ADAPTER_FILE);
}

/** The model-double scenario files (qualification/scenarios/*.json) of this repository. */
export function scenariosDirectory(): string {
  return resolve(here, '..', '..', '..', 'qualification', 'scenarios');
}

/** One scenario file by name. */
export function scenarioPath(name: string): string {
  return join(scenariosDirectory(), `${name}.json`);
}

/** The recorded native streams (testdata/stream/*.jsonl) and the fake `claude` that replays them. */
export function recordedStreamsDirectory(): string {
  return resolve(here, '..', 'testdata', 'stream');
}

export function replayClaudePath(): string {
  return resolve(here, '..', 'testdata', 'replay-claude.mjs');
}

/** The pinned provider binary (devDependency `@anthropic-ai/claude-code`), for tests and the suite. */
export function pinnedClaudePath(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@anthropic-ai/claude-code/package.json')), 'bin', 'claude.exe');
}
