import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScenarioSchema } from '@statecraft/adapter-codex';
import { useLiveCodex } from '../../fixtures/live-codex.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';

const scratch = scratchDirectories();

// The real pinned codex behind the bundled adapter, its model double asking for each command, inside
// statecraft's boundary. Under `Bash(git init:*)` each form below ran `git init <dir>` through
// bash -c while the hook read only the program word for expansions; the directory it makes is the proof.
const forms: Array<[command: string, made: string]> = [
  ["git $'init' evade-ansi", 'evade-ansi'],
  ['git {init,evade-brace}', 'evade-brace'],
  ['S=init; git $S evade-param', 'evade-param'],
  ['S=init; git "${S}" evade-quoted-param', 'evade-quoted-param'],
  ['git ini? evade-glob', 'evade-glob'],
];

const codex = useLiveCodex(scratch, () => [
  ScenarioSchema.parse({
    name: 'deny-expansions',
    description: 'Runs git init past a Bash(git init:*) rule through words the shell expands, with plain commands that no rule names around them.',
    replies: [
      // A file named `init`, for the glob to match; plain commands no rule names run as ever.
      { kind: 'exec', cmd: 'touch init' },
      { kind: 'exec', cmd: 'echo hello > ran-echo.txt' },
      { kind: 'exec', cmd: 'ls -la > ran-ls.txt' },
      ...forms.map(([cmd]) => ({ kind: 'exec' as const, cmd })),
      { kind: 'exec', cmd: 'git init evade-plain' },
      { kind: 'text', text: 'All done.' },
    ],
  }),
]);

describe('statecraft run --adapter codex: a deny rule meets words the shell expands in any position', () => {
  it('denies and records, under Bash(git init:*), an argument hidden by quoting, braces, a parameter or a glob; plain commands no rule names run (R14.2)', async () => {
    const { answer, value, refusals: streamed } = await codex.run('deny-expansions', ['--deny', 'Bash(git init:*)']);
    const made = [...forms.map(([, directory]) => directory), 'evade-plain'].filter((directory) => existsSync(join(value.workspace, directory)));
    expect(made).toEqual([]);
    expect(readFileSync(join(value.workspace, 'ran-echo.txt'), 'utf8')).toBe('hello\n');
    expect(readFileSync(join(value.workspace, 'ran-ls.txt'), 'utf8')).toContain('init');
    expect(streamed.map((verbatim) => [verbatim.tool_input?.command, verbatim.reason])).toEqual([
      ...forms.map(([command]) => [command, 'fail-closed']),
      ['git init evade-plain', 'deny-rule'],
    ]);
    for (const verbatim of streamed.slice(0, forms.length)) expect(verbatim.why).toMatch(/^denied unseen: its word .* is expanded by the shell \(/);
    expect(value.outcome).toBe('refused');
    expect(answer.exitCode).toBe(1);
  }, 150_000);
});
