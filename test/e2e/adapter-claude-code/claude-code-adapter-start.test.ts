import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { claudeCodeAdapterPath } from '@statecraft/adapter-claude-code';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';

const LOADED_MODULES_PRELOAD = fileURLToPath(new URL('../../fixtures/report-loaded-modules.cjs', import.meta.url));
const scratch = scratchDirectories();

/** The zod modules a bundle carries, from esbuild's `// node_modules/zod/...` path comments. */
function zodModulesIn(bundle: string): string[] {
  return [...bundle.matchAll(/^\/\/ node_modules\/zod\/(\S+)$/gm)].map((match) => match[1] ?? '');
}

// The adapter starts on every attempt, between the supervisor's launch and claude's start: every
// byte of its one-file bundle (R3.1) is read and compiled on that path.
describe('the Claude Code adapter starts on only what it runs', () => {
  it('its bundle leaves out the zod it never runs: the JIT compiler (it runs jitless) and the JSON Schema conversions', async () => {
    const zod = zodModulesIn(await readFile(claudeCodeAdapterPath(), 'utf8'));
    expect(zod).toContain('v4/core/schemas.js');
    expect(zod.filter((module) => /(^|\/)(compile|from-json-schema|json-schema-generator|json-schema)\.js$/.test(module))).toEqual([]);
    expect(zod.filter((module) => module.startsWith('v4/locales/'))).toEqual(['v4/locales/en.js']);
  });

  it('it starts as a classic script, so Node builds no ES module graph for it (no module jobs, no translators)', async () => {
    const report = join(await scratch.make('statecraft-adapter-modules-'), 'builtins.txt');
    // Started as the supervisor starts it, by its shebang; a usage error ends it before any request is read.
    const started = await execa(claudeCodeAdapterPath(), [], {
      reject: false,
      extendEnv: false,
      env: { PATH: process.env.PATH, NODE_OPTIONS: `--require ${LOADED_MODULES_PRELOAD}`, STATECRAFT_TEST_LOADED_MODULES_FILE: report },
    });
    expect(started.exitCode).toBe(3);
    expect(started.stderr).toContain('usage: statecraft-adapter-claude-code run --request <file>');
    const builtins = (await readFile(report, 'utf8')).split('\n');
    expect(builtins).toContain('child_process');
    expect(builtins.filter((name) => /^internal\/modules\/esm\/(module_job|translators)$/.test(name))).toEqual([]);
  });
});
