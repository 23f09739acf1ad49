import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SampleRepository } from '../../fixtures/sample-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { judgedRun as runAndJudge, operatorRepository as sharedOperatorRepository } from '../../fixtures/operator-repository.js';
import { finishedRun, parseJson, runStatecraft, startStatecraft } from '../../fixtures/statecraft-cli.js';

// `statecraft prune`, end to end through the built CLI with the fixture adapter.

interface Account {
  runId: string;
  state: string;
  records: { chain: string };
  acceptance: 'not-recorded' | { verdict: string; receiptState: string };
}
interface Pruned {
  removed: { runId: string; workspace: string; branch: string; branchCommit: string }[];
  kept: { runId: string; why: string }[];
  record: { line: number } | 'none';
}

const targets = useTestTargets({ sharedRepository: false });
const home = () => ({ home: targets.home.path });

const operatorRepository = () => sharedOperatorRepository(targets);
const judgedRun = (repository: SampleRepository, text: string) => runAndJudge<Account>(targets, repository, text);

async function prune(repository: SampleRepository, ...extra: string[]) {
  const ran = await runStatecraft(['prune', repository.path, '--json', ...extra], home());
  return { ran, answer: ran.exitCode === 0 ? parseJson<Pruned>(ran) : undefined };
}

const workspaceOf = (repository: SampleRepository, runId: string) => join(repository.path, '.statecraft', 'state', 'workspaces', runId);
async function hasBranch(repository: SampleRepository, runId: string): Promise<boolean> {
  return (await repository.git('branch', '--list', `statecraft/${runId}`)) !== '';
}

describe('statecraft prune', () => {
  it('removes concluded attempts (accepted ones kept with --keep-accepted), keeps every record, is idempotent, and doctor stays clean', async () => {
    const repository = await operatorRepository();
    const failed = await judgedRun(repository, 'forty-one');
    const accepted = await judgedRun(repository, 'forty-two');
    expect(accepted.acceptance !== 'not-recorded' && accepted.acceptance.verdict).toBe('accepted');
    // Not yet old enough: nothing goes.
    const young = await prune(repository, '--older-than', '7d');
    expect(young.ran.exitCode, young.ran.stderr).toBe(0);
    expect(young.answer?.removed).toEqual([]);
    expect(young.answer?.kept.map((entry) => entry.why)).toEqual(['newer', 'newer']);
    const chainBefore = readFileSync(failed.records.chain, 'utf8');
    const first = await prune(repository, '--keep-accepted');
    expect(first.ran.exitCode, first.ran.stderr).toBe(0);
    expect(first.answer?.removed.map((entry) => entry.runId)).toEqual([failed.runId]);
    expect(first.answer?.kept).toEqual([{ runId: accepted.runId, why: 'accepted' }]);
    expect(existsSync(workspaceOf(repository, failed.runId))).toBe(false);
    expect(await hasBranch(repository, failed.runId)).toBe(false);
    expect(existsSync(workspaceOf(repository, accepted.runId))).toBe(true);
    expect(await hasBranch(repository, accepted.runId)).toBe(true);
    expect(await repository.git('worktree', 'list', '--porcelain')).not.toContain(failed.runId);
    // The chain only grew: one prune record, naming what went.
    const chainAfter = readFileSync(failed.records.chain, 'utf8');
    expect(chainAfter.startsWith(chainBefore)).toBe(true);
    const added = chainAfter.slice(chainBefore.length).trim().split('\n');
    expect(added).toHaveLength(1);
    expect(JSON.parse(added[0] ?? '{}')).toMatchObject({ kind: 'prune', removed: [{ runId: failed.runId }] });
    // The pruned run's records still read back.
    const shown = await runStatecraft(['run', 'show', repository.path, failed.runId, '--json'], home());
    expect(parseJson<Account>(shown).runId).toBe(failed.runId);
    // Without --keep-accepted the accepted run goes too; a third prune finds nothing and appends nothing.
    const second = await prune(repository);
    expect(second.answer?.removed.map((entry) => entry.runId)).toEqual([accepted.runId]);
    const chainSettled = readFileSync(failed.records.chain, 'utf8');
    const third = await prune(repository);
    expect(third.ran.exitCode).toBe(0);
    expect(third.answer).toMatchObject({ removed: [], record: 'none' });
    expect(readFileSync(failed.records.chain, 'utf8')).toBe(chainSettled);
    const text = await runStatecraft(['prune', repository.path], home());
    expect(text.stdout).toContain('nothing to remove');
    const doctor = await runStatecraft(['doctor', '--json'], home());
    expect(doctor.exitCode, doctor.stdout).toBe(0);
    // The chain goes on after a prune record: a new run appends, and run list reads it all.
    const after = await judgedRun(repository, 'forty-two');
    expect(after.acceptance !== 'not-recorded' && after.acceptance.verdict).toBe('accepted');
    const listed = await runStatecraft(['run', 'list', repository.path, '--json'], home());
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(parseJson<{ attempts: Account[] }>(listed).attempts.map((attempt) => attempt.runId)).toEqual([failed.runId, accepted.runId, after.runId]);
  }, 300_000);

  it('never touches a live attempt: the held lock refuses the prune, nothing removed', async () => {
    const repository = await operatorRepository();
    const concluded = await judgedRun(repository, 'forty-one');
    const hung = startStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: hang', '--deadline', '120s', '--json'], {
      ...home(),
      timeoutMs: 180_000,
    });
    try {
      let live: Account | undefined;
      for (const until = Date.now() + 30_000; live === undefined && Date.now() < until;) {
        const listed = await runStatecraft(['run', 'list', repository.path, '--json'], home());
        live = listed.exitCode === 0 ? parseJson<{ attempts: Account[] }>(listed).attempts.find((attempt) => attempt.state === 'running') : undefined;
        if (live === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      if (live === undefined) throw new Error('the hang run never became live');
      const chain = readFileSync(concluded.records.chain, 'utf8');
      const refused = await runStatecraft(['prune', repository.path, '--json'], home());
      expect(refused.exitCode).toBe(2);
      expect(refused.stderr).toContain('live attempt');
      expect(existsSync(workspaceOf(repository, live.runId))).toBe(true);
      expect(await hasBranch(repository, live.runId)).toBe(true);
      expect(existsSync(workspaceOf(repository, concluded.runId))).toBe(true);
      expect(await hasBranch(repository, concluded.runId)).toBe(true);
      expect(readFileSync(concluded.records.chain, 'utf8')).toBe(chain);
    } finally {
      hung.kill('SIGINT');
      await finishedRun(hung);
    }
  }, 300_000);

  it("removes a landed run's branch while the landed commit is in the operator's branch; the receipt stays current", async () => {
    const repository = await operatorRepository();
    const accepted = await judgedRun(repository, 'forty-two');
    expect((await runStatecraft(['land', repository.path, accepted.runId], home())).exitCode).toBe(0);
    const pruned = await prune(repository);
    expect(pruned.answer?.removed).toMatchObject([{ runId: accepted.runId, branch: `refs/heads/statecraft/${accepted.runId}` }]);
    expect(await hasBranch(repository, accepted.runId)).toBe(false);
    const shown = parseJson<Account>(await runStatecraft(['run', 'show', repository.path, accepted.runId, '--json'], home()));
    expect(shown.acceptance !== 'not-recorded' && shown.acceptance.receiptState).toBe('current');
    const doctor = await runStatecraft(['doctor', '--json'], home());
    expect(doctor.exitCode, doctor.stdout).toBe(0);
  }, 300_000);

  it("keeps a landed run's branch once the landed commit left the operator's branch: it may be the work's only reference", async () => {
    const repository = await operatorRepository();
    const base = await repository.git('rev-parse', 'HEAD');
    const accepted = await judgedRun(repository, 'forty-two');
    expect((await runStatecraft(['land', repository.path, accepted.runId], home())).exitCode).toBe(0);
    await repository.git('reset', '--hard', '--quiet', base);
    const pruned = await prune(repository);
    expect(pruned.answer?.removed).toMatchObject([{ runId: accepted.runId, branch: 'none' }]);
    expect(pruned.answer?.kept).toEqual([{ runId: accepted.runId, why: 'landed-only-here' }]);
    expect(await hasBranch(repository, accepted.runId)).toBe(true);
  }, 300_000);
});
