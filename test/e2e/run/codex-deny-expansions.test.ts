import { existsSync, readFileSync } from 'node:fs';
import { symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScenarioSchema, pinnedCodexPath, startModelDouble } from '@statecraft/adapter-codex';
import type { ModelDouble } from '@statecraft/adapter-codex';
import { createProductHome, createSampleRepository } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';
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

let double: ModelDouble;
let bin: string;
beforeAll(async () => {
  double = await startModelDouble(
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
  );
  bin = await scratch.make('statecraft-codex-bin-');
  await symlink(pinnedCodexPath(), join(bin, 'codex'));
});
afterAll(async () => {
  await double.stop();
});

interface RunJson {
  outcome: string;
  workspace: string;
  refusalCount: number;
  artifacts: { stream: { path: string } };
}

interface Verbatim {
  tool_input?: { command?: string };
  reason?: string;
  why?: string;
}

describe('statecraft run --adapter codex: a deny rule meets words the shell expands in any position', () => {
  it('denies and records, under Bash(git init:*), an argument hidden by quoting, braces, a parameter or a glob; plain commands no rule names run (R14.2)', async () => {
    const repository = await createSampleRepository();
    scratch.keep(repository);
    const home = await createProductHome();
    scratch.keep(home);
    const operatorHome = await scratch.make('statecraft-codex-operator-home-');
    const env = {
      PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`,
      HOME: operatorHome,
      OPENAI_BASE_URL: double.baseUrlFor('deny-expansions'),
      OPENAI_API_KEY: double.apiKey,
    };
    const args = [
      'run',
      repository.path,
      '--adapter',
      'codex',
      '--prompt',
      'Do the scripted work.',
      '--deadline',
      '120s',
      '--json',
      '--deny',
      'Bash(git init:*)',
    ];
    const answer = await runStatecraft(args, { home: home.path, env, timeoutMs: 150_000 });
    const value = parseJson<RunJson>(answer);
    const made = [...forms.map(([, directory]) => directory), 'evade-plain'].filter((directory) => existsSync(join(value.workspace, directory)));
    expect(made).toEqual([]);
    expect(readFileSync(join(value.workspace, 'ran-echo.txt'), 'utf8')).toBe('hello\n');
    expect(readFileSync(join(value.workspace, 'ran-ls.txt'), 'utf8')).toContain('init');
    const streamed = readFileSync(value.artifacts.stream.path, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { type: string; verbatim?: Verbatim })
      .flatMap((event) => (event.type === 'refusal' && event.verbatim !== undefined ? [event.verbatim] : []));
    expect(value.refusalCount).toBe(streamed.length);
    expect(streamed.map((verbatim) => [verbatim.tool_input?.command, verbatim.reason])).toEqual([
      ...forms.map(([command]) => [command, 'fail-closed']),
      ['git init evade-plain', 'deny-rule'],
    ]);
    for (const verbatim of streamed.slice(0, forms.length)) expect(verbatim.why).toMatch(/^denied unseen: its word .* is expanded by the shell \(/);
    expect(value.outcome).toBe('refused');
    expect(answer.exitCode).toBe(1);
  }, 150_000);
});
