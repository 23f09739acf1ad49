import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { codexAdapterPath } from '@statecraft/adapter-codex';

/** The zod modules a bundle carries, from esbuild's `// node_modules/zod/...` path comments. */
function zodModulesIn(bundle: string): string[] {
  return [...bundle.matchAll(/^\/\/ node_modules\/zod\/(\S+)$/gm)].map((match) => match[1] ?? '');
}

// The adapter starts on every attempt, between the supervisor's launch and codex's start: every
// byte of its one-file bundle (R3.1) is read and compiled on that path.
describe('the Codex adapter starts on only what it runs', () => {
  it('its bundle leaves out the zod it never runs: the JIT compiler (it runs jitless) and the JSON Schema reading', async () => {
    const zod = zodModulesIn(await readFile(codexAdapterPath(), 'utf8'));
    expect(zod).toContain('v4/core/schemas.js');
    expect(zod.filter((module) => /(^|\/)(compile|from-json-schema|json-schema-generator|json-schema)\.js$/.test(module))).toEqual([]);
    expect(zod.filter((module) => module.startsWith('v4/locales/'))).toEqual(['v4/locales/en.js']);
  });
});
