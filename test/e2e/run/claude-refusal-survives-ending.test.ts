import { readFileSync } from 'node:fs';
import { symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL_DOUBLE_API_KEY, ScenarioSchema, claudeCodeAdapterPath, pinnedClaudePath, startModelDouble } from '@statecraft/adapter-claude-code';
import type { ModelDouble, ScriptedReply } from '@statecraft/adapter-claude-code';
import { createProductHome, createSampleRepository } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';

const scratch = scratchDirectories();

// Hostile pass (deny rules): the Claude Code adapter turns only claude's terminal `result` list of
// denials into refusals; the mid-stream `system/permission_denied` notice, which claude sends as
// the call is denied, is kept as progress and never counted (R10.2). So a session that never
// reaches its result loses every denial it had: the agent kills its own claude after the denied
// call (one `node` the rules pass), or the model stops answering until the deadline kills the
// tree. Either way the attempt reads `interrupted` with no refusal, although claude denied a call a
// --deny rule names. (The Codex adapter records each denial as it happens, before Codex is told.)
const KILL_CLAUDE = `const fs = require("fs");
let pid = process.ppid;
while (pid > 1) {
  const stat = fs.readFileSync("/proc/" + pid + "/stat", "utf8");
  if (/claude/.test(stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")))) { process.kill(pid, 9); break; }
  pid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}`;
const DENIED = 'git init denied-first';
const endings: Array<[how: string, replies: ScriptedReply[], deadline: string]> = [
  [
    'the agent kills its claude',
    [
      { kind: 'tool-use', tool: 'Write', input: { file_path: 'end.cjs', content: KILL_CLAUDE } },
      { kind: 'tool-use', tool: 'Bash', input: { command: 'node end.cjs' } },
    ],
    '120s',
  ],
  ['the model stops answering until the deadline', [{ kind: 'hang' }], '15s'],
];

let double: ModelDouble | undefined;
let bin = '';
beforeAll(async () => {
  double = await startModelDouble([
    ...endings.map(([, replies], index) =>
      ScenarioSchema.parse({
        name: `denied-then-no-result-${index}`,
        description: 'A call a deny rule names, denied by claude, then a session that never reaches its result.',
        replies: [{ kind: 'tool-use', tool: 'Bash', input: { command: DENIED } }, ...replies],
      }),
    ),
    ScenarioSchema.parse({
      name: 'blocked-then-no-result',
      description: 'A call a whole-tool rule blocks with its hook (no notice), then a model that stops answering.',
      replies: [{ kind: 'tool-use', tool: 'Bash', input: { command: DENIED } }, { kind: 'hang' }],
    }),
  ]);
  bin = await scratch.make('statecraft-cc-ending-bin-');
  await symlink(pinnedClaudePath(), join(bin, 'claude'));
});
afterAll(async () => {
  await double?.stop();
});

describe('statecraft run --adapter claude-code: a denial claude made is a refusal even when the session never reaches its result', () => {
  it.each(endings.map(([how, , deadline], index) => [how, index, deadline] as const))(
    'when %s',
    async (_how, index, deadline) => {
      const repository = await createSampleRepository();
      scratch.keep(repository);
      const home = await createProductHome();
      scratch.keep(home);
      const env = {
        PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`,
        HOME: await scratch.make('statecraft-cc-ending-home-'),
        ANTHROPIC_BASE_URL: double?.baseUrlFor(`denied-then-no-result-${index}`) ?? '',
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
          deadline,
          '--json',
          '--deny',
          'Bash(git init:*)',
        ],
        { home: home.path, env, timeoutMs: 150_000 },
      );
      const value = parseJson<{ outcome: string; refusalCount: number; artifacts: { stream: { path: string } } }>(answer);
      const stream = readFileSync(value.artifacts.stream.path, 'utf8');
      // claude did deny the call: its own notice is in the kept stream.
      expect(stream).toContain('"subtype":"permission_denied"');
      expect(value.outcome).not.toBe('completed');
      const refusals = stream
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as { type: string; verbatim?: unknown })
        .filter((event) => event.type === 'refusal');
      expect(value.refusalCount).toBe(1);
      expect(JSON.stringify(refusals[0]?.verbatim)).toContain(DENIED);
    },
    160_000,
  );

  it("when a hook's block, which sends no notice, is followed by a model that stops answering until the deadline", async () => {
    // A rule naming the whole tool is a PreToolUse hook that blocks each call: claude tells of it
    // only in its hook_response, which names the tool, not the call.
    const repository = await createSampleRepository();
    scratch.keep(repository);
    const home = await createProductHome();
    scratch.keep(home);
    const env = {
      PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`,
      HOME: await scratch.make('statecraft-cc-ending-home-'),
      ANTHROPIC_BASE_URL: double?.baseUrlFor('blocked-then-no-result') ?? '',
      ANTHROPIC_API_KEY: MODEL_DOUBLE_API_KEY,
    };
    const answer = await runStatecraft(
      ['run', repository.path, '--adapter', claudeCodeAdapterPath(), '--prompt', 'Do the scripted work.', '--deadline', '10s', '--json', '--deny', 'Bash'],
      { home: home.path, env, timeoutMs: 150_000 },
    );
    const value = parseJson<{ outcome: string; timedOut: boolean; refusalCount: number; refusals: { verbatim: unknown }[] }>(answer);
    expect(value.timedOut).toBe(true);
    expect(value.refusalCount).toBe(1);
    expect(value.refusals[0]?.verbatim).toMatchObject({ tool_name: 'Bash', tool_input: { command: DENIED }, hook: { exit_code: 2 } });
  }, 160_000);
});
