import { existsSync, readFileSync } from 'node:fs';
import { symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL_DOUBLE_API_KEY, ScenarioSchema, claudeCodeAdapterPath, pinnedClaudePath, startModelDouble } from '@statecraft/adapter-claude-code';
import type { ModelDouble } from '@statecraft/adapter-claude-code';
import { createProductHome, createSampleRepository } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';

const scratch = scratchDirectories();

// Hostile pass (deny rules): the real pinned claude behind the bundled adapter, in its default
// sandboxed (bypass) mode inside the boundary, its model double asking for each command. claude
// matches `Bash(git init:*)` against the words as it reads them and runs what it is unsure of: each
// form below ran `git init <dir>` with no refusal recorded (the directory it makes is the proof), and
// under `Edit(<file>)` a shell redirection whose target the shell expands wrote the denied file.
const gitForms: Array<[command: string, made: string]> = [
  ["git $'init' evade-ansi", 'evade-ansi'],
  ['git {init,evade-brace}', 'evade-brace'],
  ['git ini? evade-glob', 'evade-glob'],
  ["sh -c 'git init evade-sh'", 'evade-sh'],
  ["eval 'git init evade-eval'", 'evade-eval'],
  ['$(echo git) init evade-substitution', 'evade-substitution'],
  ['`echo git` init evade-backquote', 'evade-backquote'],
  ['git "$(echo init)" evade-quoted-substitution', 'evade-quoted-substitution'],
];
const editForms: Array<[command: string, written: string]> = [
  ["echo x >$'denied-ansi.txt'", 'denied-ansi.txt'],
  ['F=denied-param.txt; echo x > $F', 'denied-param.txt'],
  ["sh -c 'echo x > denied-sh.txt'", 'denied-sh.txt'],
];

let double: ModelDouble | undefined;
let bin = '';
beforeAll(async () => {
  double = await startModelDouble([
    ScenarioSchema.parse({
      name: 'claude-deny-expansions',
      description: 'Runs git init past Bash(git init:*), and writes files past Edit rules, through words the shell expands; plain commands around them.',
      replies: [
        // A file named `init`, for the glob to match; plain commands no rule names run as ever.
        { kind: 'tool-use', tool: 'Bash', input: { command: 'touch init' } },
        { kind: 'tool-use', tool: 'Bash', input: { command: 'echo hello > ran-echo.txt' } },
        { kind: 'tool-use', tool: 'Bash', input: { command: 'ls -la > ran-ls.txt' } },
        ...[...gitForms, ...editForms].map(([command]) => ({ kind: 'tool-use' as const, tool: 'Bash', input: { command } })),
        { kind: 'tool-use', tool: 'Bash', input: { command: 'git init evade-plain' } },
        { kind: 'text', text: 'All done.' },
      ],
    }),
  ]);
  bin = await scratch.make('statecraft-cc-deny-bin-');
  await symlink(pinnedClaudePath(), join(bin, 'claude'));
});
afterAll(async () => {
  await double?.stop();
});

interface RunJson {
  outcome: string;
  workspace: string;
  refusalCount: number;
  posture: { permissions: { mode: string } | string };
  artifacts: { stream: { path: string } };
}

describe('statecraft run --adapter claude-code (sandboxed): a deny rule meets words the shell expands', () => {
  it('denies and records a command hidden from Bash(git init:*) or an Edit rule by quoting, braces, a glob, a parameter, a shell or a substitution; plain commands run', async () => {
    const repository = await createSampleRepository();
    scratch.keep(repository);
    const home = await createProductHome();
    scratch.keep(home);
    const env = {
      PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`,
      HOME: await scratch.make('statecraft-cc-deny-home-'),
      ANTHROPIC_BASE_URL: double?.baseUrlFor('claude-deny-expansions') ?? '',
      ANTHROPIC_API_KEY: MODEL_DOUBLE_API_KEY,
    };
    const denyEdits = editForms.flatMap(([, file]) => ['--deny', `Edit(${file})`]);
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
        '--deny',
        'Bash(git init:*)',
        ...denyEdits,
      ],
      { home: home.path, env, timeoutMs: 150_000 },
    );
    const value = parseJson<RunJson>(answer);
    expect(value.posture.permissions).toEqual({ mode: 'sandboxed' });
    const madeOrWritten = [...gitForms, ...editForms, ['git init evade-plain', 'evade-plain'] as const]
      .filter(([, path]) => existsSync(join(value.workspace, path)))
      .map(([command]) => command);
    expect(madeOrWritten).toEqual([]);
    expect(readFileSync(join(value.workspace, 'ran-echo.txt'), 'utf8')).toBe('hello\n');
    expect(readFileSync(join(value.workspace, 'ran-ls.txt'), 'utf8')).toContain('init');
    const refused = readFileSync(value.artifacts.stream.path, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { type: string; verbatim?: { tool_input?: { command?: string } } })
      .flatMap((event) => (event.type === 'refusal' ? [event.verbatim?.tool_input?.command] : []));
    expect(refused).toEqual([...gitForms, ...editForms].map(([command]) => command).concat('git init evade-plain'));
    expect(value.refusalCount).toBe(refused.length);
    expect(value.outcome).toBe('refused');
    expect(answer.exitCode).toBe(1);
  }, 160_000);
});
