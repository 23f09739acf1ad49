import { describe, expect, it } from 'vitest';
import { type AcceptanceAnswer, candidateRunning, repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// R13.3, R13.4 (hostile), under `--boundary none`: a check may write the worktree's git directory
// there (its index among it). Marking a tracked file skip-worktree (or assume-unchanged) and then
// rewriting it leaves `git status` — the reading after each check — clean, so the checks after it
// judge a tracked file the candidate does not hold, and a receipt says the tree stayed clean. The
// .git pointer is guarded under `none` too (accept-each-check-sees-the-candidate.test.ts); the
// index is not.

const targets = useTestTargets({ sharedRepository: false });

async function judge(script: string): Promise<{ exitCode: number; acceptance: AcceptanceAnswer }> {
  const checks = ['node build.mjs', 'grep -qx pass verdict.txt'];
  const declaration = { project: { commands: ['node', 'grep', 'git'] }, acceptance: { checks } };
  const repository = await repositoryWithSuite(
    targets,
    { checks },
    { 'verdict.txt': 'fail\n', '.statecraft/environment.json': `${JSON.stringify(declaration)}\n` },
  );
  const home = { home: targets.home.path };
  const run = await runStatecraft(
    ['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', 'build.mjs', candidateRunning(script)), '--json'],
    home,
  );
  expect(run.exitCode).toBe(0);
  const { runId } = parseJson<{ runId: string }>(run);
  const judged = await runStatecraft(['accept', repository.path, runId, '--json', '--boundary', 'none'], { ...home, timeoutMs: 120_000 });
  return { exitCode: judged.exitCode, acceptance: parseJson<AcceptanceAnswer>(judged) };
}

describe('a check that hides its rewrite of a tracked file from the reading after it (--boundary none)', () => {
  it('fails the candidate when nothing is rewritten', async () => {
    const { acceptance } = await judge('true');
    expect(acceptance.checks.map((check) => check.exitCode)).toEqual([0, 1]);
    expect(acceptance).toMatchObject({ verdict: 'failed', receipt: null });
  });

  it.each(['--skip-worktree', '--assume-unchanged'])('never accepts the candidate whose tracked file a check rewrote behind %s', async (flag) => {
    const { exitCode, acceptance } = await judge(`git update-index ${flag} verdict.txt && echo pass > verdict.txt`);
    expect(acceptance.verdict).not.toBe('accepted');
    expect(acceptance.receipt).toBeNull();
    expect(exitCode).not.toBe(0);
  });
});
