import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFiles, writePrompt } from '../../fixtures/acceptance-repository.js';
import type { SampleRepository } from '../../fixtures/sample-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { judgedRun as runAndJudge, operatorRepository as sharedOperatorRepository } from '../../fixtures/operator-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// `statecraft land`, end to end through the built CLI with the fixture adapter.

interface Landed {
  runId: string;
  attempt: number;
  candidate: string;
  branch: string;
  before: string;
  commit: string;
  method: string;
  receipt: { path: string; sha256: string };
  record: { line: number; sha256: string };
}
interface Account {
  runId: string;
  records: { chain: string };
  acceptance: 'not-recorded' | { verdict: string; receiptState: string; candidate: { commit: string } | 'not-recorded' };
}

const targets = useTestTargets({ sharedRepository: false });
const home = () => ({ home: targets.home.path });

const operatorRepository = () => sharedOperatorRepository(targets);
const acceptedRun = (repository: SampleRepository, text = 'forty-two') => runAndJudge<Account>(targets, repository, text);

async function land(repository: SampleRepository, runId: string, ...extra: string[]) {
  return runStatecraft(['land', repository.path, runId, ...extra], home());
}

/** Everything `land` must leave alone when it refuses: the branch, the index, the work tree, the chain. */
async function checkoutState(repository: SampleRepository, account: Account) {
  return {
    head: await repository.git('rev-parse', 'HEAD'),
    branch: await repository.git('symbolic-ref', 'HEAD'),
    index: await repository.git('ls-files', '--stage'),
    status: await repository.git('status', '--porcelain=v1', '--untracked-files=all'),
    readme: readFileSync(join(repository.path, 'README.md'), 'utf8'),
    chain: readFileSync(account.records.chain, 'utf8'),
  };
}

async function receiptState(repository: SampleRepository, runId: string): Promise<string> {
  const shown = parseJson<Account>(await runStatecraft(['run', 'show', repository.path, runId, '--json'], home()));
  return shown.acceptance === 'not-recorded' ? 'not-recorded' : shown.acceptance.receiptState;
}

describe('statecraft land', () => {
  it('fast-forwards the operator branch to an accepted candidate, and the receipt stays current once the run branch is deleted', async () => {
    const repository = await operatorRepository();
    const account = await acceptedRun(repository);
    expect(account.acceptance !== 'not-recorded' && account.acceptance.verdict).toBe('accepted');
    const before = await repository.git('rev-parse', 'HEAD');
    const landed = await land(repository, account.runId, '--json');
    expect(landed.exitCode, landed.stderr).toBe(0);
    const answer = parseJson<Landed>(landed);
    expect(answer).toMatchObject({ runId: account.runId, attempt: 1, branch: 'refs/heads/main', before, method: 'fast-forward' });
    expect(answer.commit).toBe(answer.candidate);
    expect(await repository.git('rev-parse', 'HEAD')).toBe(answer.candidate);
    expect(readFileSync(join(repository.path, 'answer.txt'), 'utf8').trim()).toBe('forty-two');
    expect(await repository.git('status', '--porcelain=v1', '--untracked-files=no')).toBe('');
    // The land record is in the chain, naming the receipt and the commit.
    const last = JSON.parse(readFileSync(account.records.chain, 'utf8').trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
    expect(last).toMatchObject({ kind: 'land', runId: account.runId, commit: answer.commit, receipt: answer.receipt, method: 'fast-forward' });
    // The run's branch deleted after landing: the receipt still reads current, through the land record.
    await repository.git('worktree', 'remove', '--force', join(repository.path, '.statecraft', 'state', 'workspaces', account.runId));
    await repository.git('branch', '-D', `statecraft/${account.runId}`);
    expect(await receiptState(repository, account.runId)).toBe('current');
    // Landing again (fast-forward or squash): already there, refused, nothing appended.
    const chain = readFileSync(account.records.chain, 'utf8');
    for (const extra of [[], ['--squash']]) {
      const again = await land(repository, account.runId, ...extra);
      expect(again.exitCode).toBe(2);
      expect(again.stderr).toContain('already landed');
      expect(readFileSync(account.records.chain, 'utf8')).toBe(chain);
    }
    // Once the operator resets the landed commit away, the receipt no longer stands.
    await repository.git('reset', '--hard', '--quiet', before);
    expect(await receiptState(repository, account.runId)).toBe('stale');
    // The text answer fits 80 columns; the doctor reads the new record kind.
    const doctor = await runStatecraft(['doctor', '--json'], home());
    expect(doctor.exitCode, doctor.stdout).toBe(0);
  }, 240_000);

  it('makes a merge commit authored by the operator when the branch moved on, or one squash commit with --squash', async () => {
    for (const squash of [false, true]) {
      const repository = await operatorRepository();
      const account = await acceptedRun(repository);
      await writeFiles(repository, { 'other.txt': 'the operator went on\n' });
      await repository.git('add', 'other.txt');
      await repository.git('commit', '--quiet', '-m', 'meanwhile');
      const before = await repository.git('rev-parse', 'HEAD');
      const landed = await land(repository, account.runId, ...(squash ? ['--squash'] : []));
      expect(landed.exitCode, landed.stderr).toBe(0);
      expect(landed.stdout).toContain(squash ? '(squash)' : '(merge)');
      for (const line of landed.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
      const parents = (await repository.git('rev-list', '--parents', '-n', '1', 'HEAD')).split(' ').slice(1);
      const candidate = account.acceptance !== 'not-recorded' && account.acceptance.candidate !== 'not-recorded' ? account.acceptance.candidate.commit : '';
      expect(parents).toEqual(squash ? [before] : [before, candidate]);
      expect(await repository.git('log', '-1', '--format=%an <%ae>|%cn')).toBe('Operator One <operator@example.invalid>|Operator One');
      expect(readFileSync(join(repository.path, 'answer.txt'), 'utf8').trim()).toBe('forty-two');
      expect(readFileSync(join(repository.path, 'other.txt'), 'utf8')).toBe('the operator went on\n');
      expect(await repository.git('status', '--porcelain=v1', '--untracked-files=no')).toBe('');
      expect(await receiptState(repository, account.runId)).toBe('current');
    }
  }, 240_000);

  it('refuses a dirty checkout and a conflict, leaving branch, index, work tree and chain exactly as they were', async () => {
    const repository = await operatorRepository();
    const account = await acceptedRun(repository);
    // Uncommitted change to a tracked file, then a staged one.
    await writeFiles(repository, { 'README.md': '# edited, not committed\n' });
    let state = await checkoutState(repository, account);
    let refused = await land(repository, account.runId, '--json');
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('uncommitted changes');
    expect(await checkoutState(repository, account)).toEqual(state);
    await repository.git('add', 'README.md');
    state = await checkoutState(repository, account);
    expect((await land(repository, account.runId)).exitCode).toBe(2);
    expect(await checkoutState(repository, account)).toEqual(state);
    await repository.git('checkout', '--quiet', 'HEAD', '--', 'README.md');
    // An untracked file where the candidate would write: git refuses before writing anything.
    await writeFiles(repository, { 'answer.txt': "the operator's own, untracked\n" });
    state = await checkoutState(repository, account);
    refused = await land(repository, account.runId);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('answer.txt');
    expect(await checkoutState(repository, account)).toEqual(state);
    // The operator committed their own answer.txt: the candidate conflicts.
    await writeFiles(repository, { 'answer.txt': 'forty-three\n', 'README.md': '# sample, changed\n' });
    await repository.git('add', 'answer.txt', 'README.md');
    await repository.git('commit', '--quiet', '-m', 'a different answer');
    for (const extra of [[], ['--squash']]) {
      state = await checkoutState(repository, account);
      refused = await land(repository, account.runId, ...extra);
      expect(refused.exitCode).toBe(2);
      expect(refused.stderr).toContain('conflicts');
      expect(refused.stderr).toContain('answer.txt');
      expect(await checkoutState(repository, account)).toEqual(state);
    }
  }, 240_000);

  it('refuses a failed, an unjudged and a stale attempt, appending nothing', async () => {
    const repository = await operatorRepository();
    const failed = await acceptedRun(repository, 'forty-one');
    expect(failed.acceptance !== 'not-recorded' && failed.acceptance.verdict).toBe('failed');
    const unjudged = parseJson<Account>(
      await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', 'answer.txt', 'forty-two'), '--json'], home()),
    );
    const stale = await acceptedRun(repository);
    // The run's branch moved off the candidate since it was judged: its receipt is stale.
    await repository.git('update-ref', `refs/heads/statecraft/${stale.runId}`, await repository.git('rev-parse', 'HEAD'));
    for (const [account, words] of [
      [failed, 'not accepted'],
      [unjudged, 'never judged'],
      [stale, 'stale'],
    ] as const) {
      const state = await checkoutState(repository, account);
      const refused = await land(repository, account.runId, '--json');
      expect(refused.exitCode, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(words);
      expect(parseJson<{ refused: { message: string } }>(refused).refused.message).toContain(words);
      expect(await checkoutState(repository, account)).toEqual(state);
    }
    expect((await land(repository, '20260101T000000Z-abcdef')).exitCode).toBe(2);
  }, 240_000);
});
