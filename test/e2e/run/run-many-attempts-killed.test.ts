import { describe, expect, it } from 'vitest';
import { createPerAttemptAdapter } from '../../fixtures/per-attempt-adapter.js';
import { linkedChainRecords } from '../../fixtures/relink-chain.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { finishedRun, parseJson, runStatecraft, startStatecraft } from '../../fixtures/statecraft-cli.js';

// A run of several attempts whose supervisor is killed outright (SIGKILL) while its attempts append
// at staggered times: the chain keeps every acknowledged record, unforked, and the next run and
// `run reconcile` carry on from it, through the built CLI.

interface Listed {
  chain: string;
  attempts: { runId: string; attempt: number; state: string; outcome: string }[];
}
interface ChainLine {
  prev: string;
  seq: number;
  kind: string;
  runId?: string;
  attempt?: number;
}

const targets = useTestTargets({ sharedRepository: false });
const home = () => ({ home: targets.home.path, timeoutMs: 120_000 });

const linkedChain = (chain: string): ChainLine[] => linkedChainRecords<ChainLine>(chain);

async function listed(target: string): Promise<Listed> {
  const listing = await runStatecraft(['run', 'list', target, '--json'], home());
  expect(listing.exitCode, listing.stderr).toBe(0);
  return parseJson<Listed>(listing);
}

describe('run --attempts under kills', () => {
  it('SIGKILL while attempts end at staggered times: no fork, no acknowledged record lost; the next run takes the stale lock over; reconcile closes the rest', async () => {
    const target = await targets.fresh();
    // Two attempts end while two still work: the kill comes between their appends.
    const adapter = await createPerAttemptAdapter('staggered-kill', { 1: { waitMs: 200 }, 2: { waitMs: 700 }, 3: { hang: true }, 4: { hang: true } });
    try {
      const started = startStatecraft(
        ['run', target.path, '--adapter', adapter.executable, '--attempts', '4', '--deadline', '120s', '--prompt', 'work', '--json'],
        home(),
      );
      let before: Listed | undefined;
      let seen: Listed | undefined;
      // Well inside the test's own time: when the states never come, the run is interrupted and
      // its answer, which names any attempt it could not start and why, is the failure's message.
      for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
        seen = await listed(target.path);
        const states = seen.attempts.map((attempt) => attempt.state).sort();
        if (states.join() === 'concluded,concluded,running,running') {
          before = seen;
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      if (before === undefined) {
        started.kill('SIGINT');
        const answer = await finishedRun(started);
        expect.fail(
          `two attempts never concluded while two ran; last listed ${JSON.stringify(seen?.attempts)}; the run answered ${answer.exitCode}: ${answer.stdout}${answer.stderr}`,
        );
      }
      started.kill('SIGKILL');
      await finishedRun(started);
      const runId = before?.attempts[0]?.runId ?? '';

      // Every record acknowledged before the kill is there, linked; nothing after it was half-written.
      const chain = before?.chain ?? '';
      const records = linkedChain(chain);
      expect(records.map((record) => record.kind).sort()).toEqual(['intent', 'intent', 'intent', 'intent', 'outcome', 'outcome']);
      const after = await listed(target.path);
      expect(after.attempts.map((attempt) => [attempt.attempt, attempt.state]).sort()).toEqual([
        [1, 'concluded'],
        [2, 'concluded'],
        [3, 'dangling'],
        [4, 'dangling'],
      ]);

      // The next run takes the dead run's lock over and appends after its records.
      const next = await runStatecraft(['run', target.path, '--adapter', 'fixture', '--attempts', '2', '--prompt', 'scenario: complete', '--json'], home());
      expect(next.exitCode, next.stderr).toBe(0);
      const taken = parseJson<{ runId: string; reclaimedLock: { runId: string; holding: string; attempts: number } }>(next);
      expect(taken.reclaimedLock).toMatchObject({ runId, holding: 'run', attempts: 4 });
      const grown = linkedChain(chain);
      expect(grown.slice(0, records.length).map((record) => record.kind)).toEqual(records.map((record) => record.kind));
      expect(
        grown
          .slice(records.length)
          .map((record) => record.kind)
          .sort(),
      ).toEqual(['intent', 'intent', 'outcome', 'outcome', 'selection']);

      // No selection was recorded: land names --attempt rather than guess.
      const land = await runStatecraft(['land', target.path, runId, '--json'], home());
      expect(land.exitCode, land.stdout).toBe(2);
      expect(land.stdout).toContain('name one with --attempt <n>');

      // The dead run's two dangling intents are closed, each by its own outcome.
      const reconciled = await runStatecraft(['run', 'reconcile', target.path, '--json'], home());
      expect(reconciled.exitCode, reconciled.stderr).toBe(0);
      const closed = parseJson<{ reconciled: { runId: string; attempt: number; outcome: string; cause: string }[] }>(reconciled).reconciled;
      expect(closed.map((entry) => [entry.runId, entry.attempt, entry.outcome, entry.cause]).sort()).toEqual([
        [runId, 3, 'interrupted', 'supervisor-lost'],
        [runId, 4, 'interrupted', 'supervisor-lost'],
      ]);
      linkedChain(chain);
      expect((await listed(target.path)).attempts.filter((attempt) => attempt.state !== 'concluded')).toEqual([]);
      const doctor = await runStatecraft(['doctor', '--json'], home());
      expect(doctor.exitCode, doctor.stdout).toBe(0);
    } finally {
      await adapter.remove();
    }
  });

  it.each([150, 600, 1100])(
    'killed %i ms after the run starts, while attempts end every 250 ms: the chain verifies, reconcile closes what dangles, every attempt concluded once',
    async (afterMs) => {
      const target = await targets.fresh();
      const scripts = Object.fromEntries(Array.from({ length: 6 }, (_, index) => [index + 1, { waitMs: 250 * (index + 1) }]));
      const adapter = await createPerAttemptAdapter('every-250ms', scripts);
      try {
        const started = startStatecraft(['run', target.path, '--adapter', adapter.executable, '--attempts', '6', '--prompt', 'work', '--json'], home());
        // The clock starts once the first intent is durable: the kill then falls among the appends.
        for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
          const listing = await runStatecraft(['run', 'list', target.path, '--json'], home());
          if (listing.exitCode === 0 && parseJson<Listed>(listing).attempts.length > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await new Promise((resolve) => setTimeout(resolve, afterMs));
        started.kill('SIGKILL');
        await finishedRun(started);
        const { chain } = await listed(target.path);
        const records = linkedChain(chain);
        const intents = records.filter((record) => record.kind === 'intent').length;
        expect(records.filter((record) => record.kind === 'outcome').length).toBeLessThanOrEqual(intents);
        const reconciled = await runStatecraft(['run', 'reconcile', target.path, '--json'], home());
        expect(reconciled.exitCode, reconciled.stderr).toBe(0);
        const after = linkedChain(chain);
        // Every attempt that has an intent has exactly one outcome now; none has two.
        const outcomes = after.filter((record) => record.kind === 'outcome').map((record) => record.attempt);
        expect(outcomes.sort()).toEqual(
          after
            .filter((record) => record.kind === 'intent')
            .map((record) => record.attempt)
            .sort(),
        );
        expect((await listed(target.path)).attempts.every((attempt) => attempt.state === 'concluded')).toBe(true);
      } finally {
        await adapter.remove();
      }
    },
  );
});
