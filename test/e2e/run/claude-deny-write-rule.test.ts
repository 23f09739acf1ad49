import { existsSync, readdirSync } from 'node:fs';
import { symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL_DOUBLE_API_KEY, ScenarioSchema, claudeCodeAdapterPath, pinnedClaudePath, startModelDouble } from '@statecraft/adapter-claude-code';
import type { ModelDouble } from '@statecraft/adapter-claude-code';
import { createProductHome, createSampleRepository } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';

const scratch = scratchDirectories();

// Hostile pass (deny rules): claude 2.1.328 accepts a `Write(<path>)` deny rule and never matches
// it. With `--deny 'Write(w.txt)'` the real claude, on its model double, wrote w.txt through its
// Write tool in both permission modes, and the attempt recorded no refusal for it. A deny rule the
// provider would not enforce must not be taken: the call it names must never run unrecorded.

let double: ModelDouble | undefined;
let bin = '';
beforeAll(async () => {
  double = await startModelDouble([
    ScenarioSchema.parse({
      name: 'claude-write-denied-file',
      description: 'Writes w.txt through the Write tool, which a Write(w.txt) rule names.',
      replies: [
        { kind: 'tool-use', tool: 'Write', input: { file_path: 'w.txt', content: 'written past the rule\n' } },
        { kind: 'text', text: 'Wrote w.txt.' },
      ],
    }),
  ]);
  bin = await scratch.make('statecraft-cc-write-bin-');
  await symlink(pinnedClaudePath(), join(bin, 'claude'));
});
afterAll(async () => {
  await double?.stop();
});

describe('statecraft run --adapter claude-code --deny Write(<path>)', () => {
  it.each([
    ['sandboxed', []],
    ['strict', ['--permissions', 'strict']],
  ])(
    'under %s never lets the Write the rule names run unrecorded: the rule is refused, naming the Edit rule that holds',
    async (_mode, flags) => {
      const repository = await createSampleRepository();
      scratch.keep(repository);
      const home = await createProductHome();
      scratch.keep(home);
      const env = {
        PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`,
        HOME: await scratch.make('statecraft-cc-write-home-'),
        ANTHROPIC_BASE_URL: double?.baseUrlFor('claude-write-denied-file') ?? '',
        ANTHROPIC_API_KEY: MODEL_DOUBLE_API_KEY,
      };
      const answer = await runStatecraft(
        [
          'run',
          repository.path,
          '--adapter',
          claudeCodeAdapterPath(),
          '--prompt',
          'Do the scripted work.',
          '--deadline',
          '120s',
          '--json',
          ...flags,
          '--deny',
          'Write(w.txt)',
        ],
        { home: home.path, env, timeoutMs: 150_000 },
      );
      const workspaces = join(repository.path, '.statecraft', 'state', 'workspaces');
      const written = existsSync(workspaces) ? readdirSync(workspaces).filter((run) => existsSync(join(workspaces, run, 'w.txt'))) : [];
      expect(written).toEqual([]);
      const value = parseJson<{ outcome: string; adapterError: { code: string; message: string } | string }>(answer);
      expect(answer.exitCode).toBe(1);
      expect(value.outcome).toBe('interrupted');
      expect(value.adapterError).toMatchObject({ code: 'invocation-refused', message: expect.stringContaining('deny Edit(w.txt)') as unknown });
    },
    160_000,
  );
});
