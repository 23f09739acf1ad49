import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SampleRepository } from '../../fixtures/sample-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { judgedRun as runAndJudge, operatorRepository as sharedOperatorRepository } from '../../fixtures/operator-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// `land` and `prune` name a run as `run show` does (decision 0161), through the built CLI: its whole
// id, a unique start of it, or `latest`; the target may be left out for the repository the operator
// is in (decision 0162). Two runs under one start is a usage error (exit 3), an unknown one refused.

interface Account {
  runId: string;
}
interface Landed {
  runId: string;
  method: string;
}
interface Pruned {
  removed: { runId: string }[];
}

const targets = useTestTargets({ sharedRepository: false });
const home = () => ({ home: targets.home.path });

const operatorRepository = () => sharedOperatorRepository(targets);
const acceptedRun = (repository: SampleRepository, text = 'forty-two') => runAndJudge<Account>(targets, repository, text);

/** The shortest start of `runId` no other run's id shares. */
function uniqueStart(runId: string, others: readonly string[]): string {
  for (let length = 1; length <= runId.length; length += 1) {
    const start = runId.slice(0, length);
    if (!others.some((other) => other !== runId && other.startsWith(start))) return start;
  }
  return runId;
}

/** The longest start two run ids share, when they share one. */
function sharedStart(left: string, right: string): string {
  let length = 0;
  while (length < left.length && left[length] === right[length]) length += 1;
  return left.slice(0, length);
}

const workspaceOf = (repository: SampleRepository, runId: string) => join(repository.path, '.statecraft', 'state', 'workspaces', runId);

describe('land names its run by a unique start or latest, in the repository it is run from', () => {
  it('`land latest` from inside the checkout lands the latest run', async () => {
    const repository = await operatorRepository();
    const account = await acceptedRun(repository);
    const landed = await runStatecraft(['land', 'latest', '--json'], { ...home(), cwd: repository.path });
    expect(landed.exitCode, landed.stderr).toBe(0);
    expect(parseJson<Landed>(landed)).toMatchObject({ runId: account.runId, method: 'fast-forward' });
  });

  it('a unique start of the run id lands that run; an ambiguous one is a usage error and an unknown one refused, nothing landed', async () => {
    const repository = await operatorRepository();
    const first = await acceptedRun(repository, 'forty-two');
    const second = await acceptedRun(repository, 'forty-two');
    const head = await repository.git('rev-parse', 'HEAD');
    const shared = sharedStart(first.runId, second.runId);
    const ambiguous = await runStatecraft(['land', repository.path, shared], home());
    expect(ambiguous.exitCode).toBe(3);
    expect(ambiguous.stderr).toContain('ambiguous');
    const unknown = await runStatecraft(['land', repository.path, '1999'], home());
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('no run of');
    expect(await repository.git('rev-parse', 'HEAD')).toBe(head);
    const start = uniqueStart(first.runId, [second.runId]);
    expect(start.length).toBeLessThan(first.runId.length);
    const landed = await runStatecraft(['land', repository.path, start, '--json'], home());
    expect(landed.exitCode, landed.stderr).toBe(0);
    expect(parseJson<Landed>(landed).runId).toBe(first.runId);
  });
});

describe('prune takes a run, by a unique start or latest, and removes only that run', () => {
  it('`prune . latest` from inside the checkout removes the latest run only; a start names the other', async () => {
    const repository = await operatorRepository();
    const first = await acceptedRun(repository, 'wrong');
    const second = await acceptedRun(repository, 'also wrong');
    const latest = await runStatecraft(['prune', '.', 'latest', '--json'], { ...home(), cwd: repository.path });
    expect(latest.exitCode, latest.stderr).toBe(0);
    expect(parseJson<Pruned>(latest).removed.map((entry) => entry.runId)).toEqual([second.runId]);
    expect(existsSync(workspaceOf(repository, second.runId))).toBe(false);
    expect(existsSync(workspaceOf(repository, first.runId))).toBe(true);
    const byStart = await runStatecraft(['prune', repository.path, uniqueStart(first.runId, [second.runId]), '--json'], home());
    expect(byStart.exitCode, byStart.stderr).toBe(0);
    expect(parseJson<Pruned>(byStart).removed.map((entry) => entry.runId)).toEqual([first.runId]);
  });

  it('an ambiguous start is a usage error, an unknown one refused: nothing removed', async () => {
    const repository = await operatorRepository();
    const first = await acceptedRun(repository, 'wrong');
    const second = await acceptedRun(repository, 'also wrong');
    const ambiguous = await runStatecraft(['prune', repository.path, sharedStart(first.runId, second.runId)], home());
    expect(ambiguous.exitCode).toBe(3);
    const unknown = await runStatecraft(['prune', repository.path, '1999'], home());
    expect(unknown.exitCode).toBe(2);
    for (const account of [first, second]) expect(existsSync(workspaceOf(repository, account.runId))).toBe(true);
  });

  it('with no words, prune works on the repository it is run from, every run', async () => {
    const repository = await operatorRepository();
    const account = await acceptedRun(repository, 'wrong');
    const pruned = await runStatecraft(['prune', '--json'], { ...home(), cwd: repository.path });
    expect(pruned.exitCode, pruned.stderr).toBe(0);
    expect(parseJson<Pruned>(pruned).removed.map((entry) => entry.runId)).toEqual([account.runId]);
  });
});
