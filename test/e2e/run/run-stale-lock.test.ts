import { createHash } from 'node:crypto';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { finishedRun, parseJson, runStatecraft, startStatecraft, type CliRun } from '../../fixtures/statecraft-cli.js';

interface List {
  attempts: { runId: string; attempt: number; state: string; outcome: string }[];
}
interface Concluded {
  runId: string;
  outcome: string;
  records: { chain: string };
}

const targets = useTestTargets({ sharedRepository: false });
const RACERS = 3;
const ROUNDS = 3;

/** A pid that certainly belonged to a process and certainly no longer does. */
async function deadPid(): Promise<number> {
  const child = await execa(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout);
}

const list = (target: string) => runStatecraft(['run', 'list', target, '--json'], { home: targets.home.path });
const hang = (target: string) =>
  startStatecraft(['run', target, '--adapter', 'fixture', '--prompt', 'scenario: hang', '--deadline', '60s', '--json'], { home: targets.home.path });

/** Polls `run list` until `done` says so or 30 s pass; answers the last listing. */
async function listUntil(target: string, done: (listing: CliRun) => boolean): Promise<CliRun> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const listing = await list(target);
    if (done(listing) || Date.now() > deadline) return listing;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const running = (listing: CliRun): number =>
  listing.exitCode === 0 ? parseJson<List>(listing).attempts.filter((attempt) => attempt.state === 'running').length : 0;

describe("runs racing over a dead supervisor's lock, through the CLI (R8.5)", () => {
  it(`${RACERS} runs started together over a stale lock, ${ROUNDS} times: one runs, the others are refused naming it, and run list still verifies`, async () => {
    const target = await targets.fresh();
    const first = await runStatecraft(['run', target.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], { home: targets.home.path });
    expect(first.exitCode).toBe(0);
    const lock = join(dirname(parseJson<Concluded>(first).records.chain), 'lock');
    for (let round = 0; round < ROUNDS; round += 1) {
      await writeFile(
        lock,
        JSON.stringify({ pid: await deadPid(), host: hostname(), runId: `dead-round-${round}`, attempt: 1, since: new Date().toISOString() }),
      );
      const racers = Array.from({ length: RACERS }, () => hang(target.path));
      let settled = 0;
      for (const racer of racers) void racer.then(() => (settled += 1));
      // Each racer either was refused (it ends) or holds the target (its intent is running).
      const listing = await listUntil(target.path, (current) => current.exitCode !== 0 || settled + running(current) >= RACERS);
      for (const racer of racers) racer.kill('SIGINT');
      const answers = await Promise.all(racers.map(finishedRun));
      expect(listing.exitCode, listing.stderr).toBe(0);
      const refusals = answers
        .filter((answer) => answer.exitCode === 2)
        .map((answer) => parseJson<{ refused: { reason: string; message: string } }>(answer).refused);
      const winners = answers.filter((answer) => answer.exitCode !== 2).map((answer) => parseJson<Concluded>(answer));
      expect(winners.map((winner) => winner.outcome)).toEqual(['cancelled']);
      expect(refusals).toHaveLength(RACERS - 1);
      for (const refusal of refusals) {
        expect(refusal.reason).toBe('live-attempt');
        expect(refusal.message).toContain(`run ${winners[0]?.runId ?? '?'} attempt 1`);
      }
    }
    const after = await list(target.path);
    expect(after.exitCode, after.stderr).toBe(0);
    expect(parseJson<List>(after).attempts.map((attempt) => attempt.outcome)).toEqual(['completed', ...Array.from({ length: ROUNDS }, () => 'cancelled')]);
  });

  it('a record appended by another writer while an attempt runs is not forked: the outcome is refused, nothing is written, and run list still verifies (R8.4)', async () => {
    const target = await targets.fresh();
    const live = hang(target.path);
    const listing = await listUntil(target.path, (current) => running(current) === 1);
    expect(running(listing)).toBe(1);
    const attempt = parseJson<List>(listing).attempts[0];
    // What a second supervisor that slipped past the lock would write: an intent linked to the tip.
    const shown = await runStatecraft(['run', 'show', target.path, attempt?.runId ?? '?', '--json'], { home: targets.home.path });
    const chain = parseJson<Concluded>(shown).records.chain;
    const intentLine = (await readFile(chain, 'utf8')).trimEnd();
    const intent = JSON.parse(intentLine) as Record<string, unknown>;
    const forged = { ...intent, prev: createHash('sha256').update(intentLine).digest('hex'), seq: 1, attempt: 2 };
    await appendFile(chain, `${JSON.stringify(forged)}\n`);
    const before = await readFile(chain);

    live.kill('SIGINT');
    const ended = await finishedRun(live);
    expect(ended.exitCode).toBe(4);
    const failure = parseJson<{ failed: { stage: string; message: string } }>(ended).failed;
    expect(failure.stage).toBe('outcome');
    expect(failure.message).toContain(`${chain}: the chain is ${before.length} bytes`);
    expect(failure.message).toContain('nothing was written');
    expect(await readFile(chain)).toEqual(before);
    const after = await list(target.path);
    expect(after.exitCode, after.stderr).toBe(0);
    expect(parseJson<List>(after).attempts.map((each) => [each.attempt, each.state])).toEqual([
      [1, 'dangling'],
      [2, 'dangling'],
    ]);
  });
});
