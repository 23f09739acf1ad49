import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryWithSuite } from '../../fixtures/acceptance-repository.js';
import { findExecutableOnPath } from '@statecraft/adapter';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { createScriptedAdapter } from '../../fixtures/scripted-adapter.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// R5.1: the child's environment is built, not inherited. An empty or relative entry of the
// operator's PATH (`node_modules/.bin`, a leading `:`) resolves against the child's working
// directory — the agent's workspace, and the candidate a check runs in — so a program the agent
// plants there would answer for the one an adapter or a check names (found by a hostile tester).

interface PlacedName {
  name: string;
  value: { recorded: string } | 'redacted';
  droppedEntries?: string[];
}
interface Account {
  runId: string;
  outcome: string;
  posture: { environment: { names: PlacedName[] } };
  acceptance: { verdict: string; reason: string; explanation: string; receipt: object | null };
}

/** The operator's PATH with a relative entry and an empty one in front of it. */
const HIJACKABLE_PATH = `node_modules/.bin::${process.env.PATH ?? '/usr/bin:/bin'}`;

/** An agent that writes the wrong answer and plants a `grep` that always succeeds where the relative entry points. */
async function createPlantingAdapter() {
  return createScriptedAdapter(
    'planting',
    [
      "import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';",
      "writeFileSync('answer.txt', '41\\n');",
      "mkdirSync('node_modules/.bin', { recursive: true });",
      "writeFileSync('node_modules/.bin/grep', '#!/bin/sh\\nexit 0\\n');",
      "chmodSync('node_modules/.bin/grep', 0o755);",
      "writeFileSync('grep', '#!/bin/sh\\nexit 0\\n');",
      "chmodSync('grep', 0o755);",
      'init();',
      "emit({ type: 'result', terminal: 'completed', claim: { status: 'success', isError: false, reason: 'completed', detail: {} }, turns: 1 });",
    ].join('\n'),
  );
}

/** An agent that plants a `git` where the relative entry points: it leaves `marker` if anyone runs it, then runs the real one. */
async function createGitPlantingAdapter(marker: string) {
  const git = findExecutableOnPath('git', process.env.PATH);
  if (git === undefined) throw new Error('no git on PATH');
  const shim = `#!/bin/sh\necho "$PWD $*" >> ${marker}\nexec ${git} "$@"\n`;
  return createScriptedAdapter(
    'planting-git',
    [
      "import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';",
      "writeFileSync('answer.txt', '42\\n');",
      "mkdirSync('node_modules/.bin', { recursive: true });",
      `writeFileSync('node_modules/.bin/git', ${JSON.stringify(shim)});`,
      "chmodSync('node_modules/.bin/git', 0o755);",
      'init();',
      "emit({ type: 'result', terminal: 'completed', claim: { status: 'success', isError: false, reason: 'completed', detail: {} }, turns: 1 });",
    ].join('\n'),
  );
}

const targets = useTestTargets({ sharedRepository: false });
const scratch = scratchDirectories();

describe("empty and relative entries of the operator's PATH are not passed to a child (R5.1, R13)", () => {
  it("a check run by name is the system's, not a program the candidate planted: the wrong answer is not accepted", async () => {
    const adapter = await createPlantingAdapter();
    try {
      // A shell check: its shell looks `grep` up on the PATH it is given (a simple check's program is
      // resolved on absolute entries only, but what that program runs by name is not).
      const repository = await repositoryWithSuite(targets, { checks: ['grep -q 42 answer.txt && echo checked'] });
      const run = await runStatecraft(['run', repository.path, '--adapter', adapter.executable, '--prompt', 'hi', '--accept', '--json'], {
        home: targets.home.path,
        env: { PATH: HIJACKABLE_PATH },
        timeoutMs: 120_000,
      });
      const account = parseJson<Account>(run);
      expect(account.acceptance, run.stderr).toMatchObject({ verdict: 'failed', reason: 'check-failed', receipt: null });
      expect(account.acceptance.explanation).toContain('`grep -q 42 answer.txt && echo checked` exited 1');
      expect(run.exitCode).toBe(1);
      // The adapter's own PATH went without them, and its record says which were left out.
      const path = account.posture.environment.names.find((entry) => entry.name === 'PATH');
      expect(path?.droppedEntries).toEqual(['node_modules/.bin', '']);
      expect(path?.value).toEqual({ recorded: process.env.PATH });
      const shown = await runStatecraft(['run', 'show', repository.path, account.runId, '--posture'], { home: targets.home.path });
      expect(shown.stdout).toContain('PATH (dropped, empty or relative: "node_modules/.bin", "")');
    } finally {
      await adapter.remove();
    }
  });

  it("the supervisor's own git, run in the agent's workspace to take the candidate, is never a git the agent planted there", async () => {
    const marker = join(await scratch.make('statecraft-planted-git'), 'planted-git-ran');
    const adapter = await createGitPlantingAdapter(marker);
    try {
      const repository = await repositoryWithSuite(targets, { checks: ['grep -q 42 answer.txt'] });
      const run = await runStatecraft(['run', repository.path, '--adapter', adapter.executable, '--prompt', 'hi', '--accept', '--json'], {
        home: targets.home.path,
        env: { PATH: HIJACKABLE_PATH },
        timeoutMs: 120_000,
      });
      expect(parseJson<Account>(run).acceptance.verdict, run.stderr).toBe('accepted');
      // Run outside any sandbox, as the operator, it could have forged the candidate or anything else.
      expect(existsSync(marker)).toBe(false);
    } finally {
      await adapter.remove();
    }
  });

  it('env plan shows the entries it drops, in its answer and in its human rendering', async () => {
    const repository = await targets.fresh();
    const planned = await runStatecraft(['env', 'plan', repository.path, '--adapter', 'fixture', '--json'], {
      home: targets.home.path,
      env: { PATH: HIJACKABLE_PATH },
    });
    expect(planned.exitCode, planned.stderr).toBe(0);
    const { adapters } = parseJson<{ adapters: { environment: { names: PlacedName[] } }[] }>(planned);
    const path = adapters[0]?.environment.names.find((entry) => entry.name === 'PATH');
    expect(path).toMatchObject({ value: { recorded: process.env.PATH }, droppedEntries: ['node_modules/.bin', ''] });
    const human = await runStatecraft(['env', 'plan', repository.path, '--adapter', 'fixture'], { home: targets.home.path, env: { PATH: HIJACKABLE_PATH } });
    expect(human.stdout).toContain('PATH (dropped, empty or relative: "node_modules/.bin", "")');
  });
});
