import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlive } from '../../fixtures/attempt-stream.js';
import { doctorOf, findingsAbout } from '../../fixtures/doctor-findings.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { finishedRun, parseJson, runStatecraft, startStatecraft, type CliRun } from '../../fixtures/statecraft-cli.js';

/**
 * Issue 29 item 11: a supervisor killed with SIGKILL leaves an intent with no outcome, and doctor
 * reported it (exit 1) on every later call with nothing that could close it. `run reconcile`
 * appends, under the target's lock, an outcome `interrupted (supervisor-lost)` for each intent whose
 * supervisor is gone; never for a live attempt; a second call appends nothing.
 */

interface List {
  chain: string;
  attempts: { runId: string; attempt: number; state: string; outcome: string; cause: string }[];
}
interface Reconciled {
  target: string;
  chain: string;
  reconciled: { runId: string; attempt: number; intentLine: number; outcomeLine: number; outcome: string; cause: string; stream: string; stderr: string }[];
}
interface Shown {
  outcome: string;
  cause: string;
  state: string;
  outcomeCheck: { state: string };
  artifactCheck: { state: string }[] | Record<string, unknown>;
}

const targets = useTestTargets({ sharedRepository: false });
const home = () => targets.home.path;

const list = (target: string) => runStatecraft(['run', 'list', target, '--json'], { home: home() });
const reconcile = (target: string) => runStatecraft(['run', 'reconcile', target, '--json'], { home: home() });
const hang = (target: string) =>
  startStatecraft(['run', target, '--adapter', 'fixture', '--prompt', 'scenario: hang', '--deadline', '60s', '--json'], { home: home() });

/** Polls `run list` until an attempt of `target` is running; answers the listing. */
async function untilRunning(target: string): Promise<List> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const listing = await list(target);
    if (listing.exitCode === 0) {
      const value = parseJson<List>(listing);
      if (value.attempts.some((attempt) => attempt.state === 'running')) return value;
    }
    if (Date.now() > deadline) throw new Error(`no attempt of ${target} started running: ${listing.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Starts a hanging attempt and kills its supervisor with SIGKILL (read from the lock it holds): a dangling intent. */
async function killedAttempt(target: string): Promise<{ chain: string; runId: string }> {
  const started = hang(target);
  const listing = await untilRunning(target);
  const holder = JSON.parse(await readFile(join(listing.chain, '..', 'lock'), 'utf8')) as { pid: number; runId: string };
  process.kill(holder.pid, 'SIGKILL');
  await finishedRun(started);
  for (let waited = 0; (await isAlive(holder.pid)) && waited < 100; waited += 1) await new Promise((resolve) => setTimeout(resolve, 50));
  return { chain: listing.chain, runId: holder.runId };
}

function stateOf(listing: CliRun, runId: string): { state: string; outcome: string; cause: string } | undefined {
  return parseJson<List>(listing).attempts.find((attempt) => attempt.runId === runId);
}

describe('run reconcile: attempts whose supervisor was lost (issue 29 item 11)', () => {
  it('doctor reports the dangling intent and names the verb; reconcile appends interrupted (supervisor-lost); doctor is then clean; a second reconcile appends nothing', async () => {
    const target = await targets.fresh();
    const { chain, runId } = await killedAttempt(target.path);

    const before = await doctorOf(home());
    expect(before.run.exitCode).toBe(1);
    const dangling = findingsAbout(before.value, chain).filter((finding) => finding.kind === 'dangling-intent');
    expect(dangling).toHaveLength(1);
    expect(dangling[0]?.message).toContain(`statecraft run reconcile ${target.path}`);
    expect(stateOf(await list(target.path), runId)?.state).toBe('dangling');
    const chainBefore = await readFile(chain);

    const closed = await reconcile(target.path);
    expect(closed.exitCode, closed.stderr).toBe(0);
    const value = parseJson<Reconciled>(closed);
    expect(value.chain).toBe(chain);
    expect(value.reconciled).toEqual([
      {
        runId,
        attempt: 1,
        intentLine: 1,
        outcomeLine: 2,
        outcome: 'interrupted',
        cause: 'supervisor-lost',
        stream: 'kept',
        stderr: 'kept',
        survivors: [],
        // The hanging fixture changed nothing of its workspace's git: nothing was put back.
        workspaceGit: { workspace: join(target.path, '.statecraft', 'state', 'workspaces', runId), state: 'restored', restored: [] },
      },
    ]);
    // Appended, never rewritten: the chain as it was, then one line.
    const chainAfter = await readFile(chain);
    expect(chainAfter.subarray(0, chainBefore.length)).toEqual(chainBefore);
    expect(chainAfter.subarray(chainBefore.length).toString('utf8').split('\n')).toHaveLength(2);

    const after = await doctorOf(home());
    expect(findingsAbout(after.value, chain), after.run.stdout).toEqual([]);
    expect(after.run.exitCode, after.run.stdout).toBe(0);
    expect(stateOf(await list(target.path), runId)).toMatchObject({ state: 'concluded', outcome: 'interrupted', cause: 'supervisor-lost' });
    const shown = await runStatecraft(['run', 'show', target.path, runId, '--json'], { home: home() });
    expect(shown.exitCode).toBe(1);
    // The outcome is what the kept stream gives, read again by doctor's own classifier.
    expect(parseJson<Shown>(shown)).toMatchObject({ outcome: 'interrupted', cause: 'supervisor-lost', outcomeCheck: { state: 'agrees' } });

    const again = await reconcile(target.path);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(parseJson<Reconciled>(again).reconciled).toEqual([]);
    expect(await readFile(chain)).toEqual(chainAfter);
    const human = await runStatecraft(['run', 'reconcile', target.path], { home: home() });
    expect(human.stdout).toContain('no dangling intent');
  });

  it("two lost supervisors in a row (the second took over the first one's stale lock), one with its stream gone: both concluded, in chain order", async () => {
    const target = await targets.fresh();
    const first = await killedAttempt(target.path);
    const second = await killedAttempt(target.path);
    const listing = parseJson<List>(await list(target.path));
    expect(listing.attempts.map((attempt) => attempt.state)).toEqual(['dangling', 'dangling']);
    // A supervisor lost before its stream was kept (or a stream removed since): named, not invented.
    await rm(join(first.chain, '..', 'attempts', first.runId, '1', 'stream.ndjson'));

    const closed = await reconcile(target.path);
    expect(closed.exitCode, closed.stderr).toBe(0);
    expect(parseJson<Reconciled>(closed).reconciled.map((each) => [each.runId, each.intentLine, each.outcomeLine, each.stream])).toEqual([
      [first.runId, 1, 3, 'not-found'],
      [second.runId, 2, 4, 'kept'],
    ]);
    const after = await doctorOf(home());
    expect(findingsAbout(after.value, first.chain).map((finding) => finding.kind)).not.toContain('dangling-intent');
    expect(parseJson<List>(await list(target.path)).attempts.map((attempt) => [attempt.state, attempt.cause])).toEqual([
      ['concluded', 'supervisor-lost'],
      ['concluded', 'supervisor-lost'],
    ]);
  });

  it('a live attempt (its supervisor holds the lock) is never reconciled: refused, exit 2, nothing appended; the attempt then ends as its own supervisor says', async () => {
    const target = await targets.fresh();
    const live = hang(target.path);
    const listing = await untilRunning(target.path);
    const runId = listing.attempts[0]?.runId ?? '?';
    const chainBefore = await readFile(listing.chain);

    for (const args of [
      ['run', 'reconcile', target.path, '--json'],
      ['run', 'reconcile', target.path],
    ]) {
      const refused = await runStatecraft(args, { home: home() });
      expect(refused.exitCode, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(`a live attempt holds this target: run ${runId} attempt 1`);
      expect(refused.stderr).toContain('a live attempt is never reconciled');
      if (args.includes('--json')) expect(parseJson<{ refused: { message: string } }>(refused).refused.message).toContain(runId);
    }
    expect(await readFile(listing.chain)).toEqual(chainBefore);
    expect(stateOf(await list(target.path), runId)?.state).toBe('running');

    live.kill('SIGINT');
    const ended = parseJson<{ outcome: string }>(await finishedRun(live));
    expect(ended.outcome).toBe('cancelled');
    expect(stateOf(await list(target.path), runId)).toMatchObject({ state: 'concluded', outcome: 'cancelled' });
  });

  it('a target with no records, or not a repository: nothing appended; usage and help are named', async () => {
    const target = await targets.fresh();
    const none = await reconcile(target.path);
    expect(none.exitCode, none.stderr).toBe(0);
    expect(parseJson<Reconciled>(none).reconciled).toEqual([]);
    const notRepository = await reconcile(join(target.path, 'no-such-directory'));
    expect(notRepository.exitCode).toBe(2);
    const missing = await runStatecraft(['run', 'reconcile', '--json'], { home: home() });
    expect(missing.exitCode).toBe(3);
    const help = await runStatecraft(['run', 'reconcile', '--help'], { home: home() });
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('supervisor-lost');
    expect(help.stdout).toContain('a running attempt is never reconciled');
  });
});
