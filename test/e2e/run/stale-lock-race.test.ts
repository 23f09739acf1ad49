import { writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { dir, type DirectoryResult } from 'tmp-promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openChain } from '@statecraft/records';
import { sampleIntent } from '../../../packages/records/test/sample-records.js';
const RACER = fileURLToPath(new URL('../../fixtures/lock-racer.mjs', import.meta.url));
const ROUNDS = 200;
const RACERS = 4;

interface RaceAnswer {
  round: number;
  name: string;
  kind: 'acquired' | 'refused' | 'error';
  appended?: string;
  message?: string;
}

const RACER_OPTIONS = { stdin: 'pipe', reject: false } as const;

/** One racer process and the answers it has written, line by line. */
interface Racer {
  child: ResultPromise<typeof RACER_OPTIONS>;
  next: () => Promise<RaceAnswer>;
}

function startRacer(lock: string, chain: string, name: string): Racer {
  const child = execa(process.execPath, [RACER, lock, chain, name, JSON.stringify(sampleIntent(1))], RACER_OPTIONS);
  const waiting: ((answer: RaceAnswer) => void)[] = [];
  const answered: RaceAnswer[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    const answer = JSON.parse(line) as RaceAnswer & { ready?: string };
    if (answer.ready !== undefined) return;
    const taker = waiting.shift();
    if (taker === undefined) answered.push(answer);
    else taker(answer);
  });
  const next = (): Promise<RaceAnswer> => {
    const ready = answered.shift();
    if (ready !== undefined) return Promise.resolve(ready);
    return new Promise((resolve) => waiting.push(resolve));
  };
  return { child, next };
}

/** A pid that certainly belonged to a process and certainly no longer does. */
async function deadPid(): Promise<number> {
  const child = await execa(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout);
}

function isDead(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

let scratch: DirectoryResult;
let directory: string;
beforeAll(async () => {
  scratch = await dir({ unsafeCleanup: true, prefix: 'statecraft-lock-race' });
  directory = scratch.path;
});
afterAll(async () => {
  await scratch.cleanup();
});

describe('taking over a stale lock is as exclusive as taking a free one (R8.5)', () => {
  it(`${RACERS} processes racing over a dead supervisor's lock ${ROUNDS} times: exactly one wins each round, and the chain they append to verifies`, async () => {
    const lock = join(directory, 'lock');
    const chain = join(directory, 'chain.jsonl');
    const racers = Array.from({ length: RACERS }, (_, index) => startRacer(lock, chain, `racer-${index}`));
    const winners: RaceAnswer[] = [];
    const contested: { round: number; winners: string[] }[] = [];
    const failures: RaceAnswer[] = [];
    let dead = await deadPid();
    try {
      for (let round = 0; round < ROUNDS; round += 1) {
        // The lock a supervisor left when it died: its pid is gone on this host.
        if (!isDead(dead)) dead = await deadPid();
        const stale = { pid: dead, host: hostname(), runId: `dead-round-${round}`, attempt: 1, since: new Date().toISOString() };
        await writeFile(lock, JSON.stringify(stale));
        for (const racer of racers) racer.child.stdin.write(`go ${round}\n`);
        const answers = await Promise.all(racers.map((racer) => racer.next()));
        const won = answers.filter((answer) => answer.kind === 'acquired');
        if (won.length !== 1) contested.push({ round, winners: won.map((answer) => answer.name) });
        winners.push(...won);
        failures.push(...answers.filter((answer) => answer.kind === 'error' || (answer.kind === 'acquired' && answer.appended !== 'yes')));
      }
    } finally {
      for (const racer of racers) racer.child.stdin.end();
      await Promise.all(racers.map((racer) => racer.child));
    }
    expect(contested).toEqual([]);
    expect(failures).toEqual([]);
    const opening = await openChain(chain);
    if (opening.kind !== 'opened') throw new Error(opening.message);
    expect(opening.entries.map((entry) => (entry.record.kind === 'prune' ? undefined : entry.record.runId))).toEqual(
      winners.map((winner) => `${winner.name}-round-${winner.round}`),
    );
    expect(opening.entries).toHaveLength(ROUNDS);
  });
});
