import { copyFile, mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readKeptEvents, progressDetail } from '../../fixtures/attempt-stream.js';
import { createProductHome, createSampleRepository, type SampleRepository } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// R12: a hostile adapter (the fixture's `attack` scenario) tries to reach the records,
// the operator's checkout and the supervisor. Under the boundary every move is denied and the
// record stays whole; the same moves with `--boundary none` succeed, which proves each assertion
// can fail, and the posture says `none`.

interface Account {
  runId: string;
  outcome: string;
  posture: { boundary: { mechanism: string; probe?: { check: string; held: boolean }[] }; containment: { mechanism: string } };
  records: { chain: string };
  artifacts: { stream: { path: string } | 'not-recorded' };
}

interface Move {
  move: string;
  argument: string;
  succeeded: boolean;
  error?: string;
  bytes?: number;
  pid?: number;
  command?: string;
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const REFERENCE_RECORDS = new URL('../../../qualification/records/', import.meta.url);

/** A product home with a qualification record and one concluded attempt: records worth attacking. */
async function seededTarget(): Promise<{ home: string; repository: SampleRepository; chain: string }> {
  const home = await createProductHome();
  const repository = await createSampleRepository();
  cleanups.push(home.remove, repository.remove);
  await mkdir(join(home.path, 'qualifications'), { recursive: true });
  const reference = (await readdir(REFERENCE_RECORDS)).find((name) => name.startsWith('fixture-'));
  if (reference === undefined) throw new Error('no fixture reference record in qualification/records');
  await copyFile(new URL(reference, REFERENCE_RECORDS), join(home.path, 'qualifications', reference));
  const first = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], { home: home.path });
  expect(first.exitCode).toBe(0);
  return { home: home.path, repository, chain: parseJson<Account>(first).records.chain };
}

interface Observed {
  qualifications: string;
  status: string;
  head: string;
  chain: Buffer;
}

async function observe(target: { home: string; repository: SampleRepository; chain: string }): Promise<Observed> {
  const qualifications = await runStatecraft(['qualifications', 'list', '--json'], { home: target.home });
  return {
    qualifications: qualifications.stdout,
    status: await target.repository.git('status', '--porcelain', '--untracked-files=all'),
    head: await target.repository.git('rev-parse', 'HEAD'),
    chain: await readFile(target.chain),
  };
}

type Where = { home: string; repository: SampleRepository; chain: string };

/** Runs the attack with the given moves, with or without the boundary; answers what each move did. */
async function attack(boundary: 'bwrap' | 'none', moves: (where: Where) => string[]) {
  const where = await seededTarget();
  const before = await observe(where);
  // Without the boundary, the process-group fallback: the adapter's parent is then the supervisor itself.
  const env: Record<string, string> = boundary === 'none' ? { STATECRAFT_BOUNDARY: 'none', STATECRAFT_CONTAINMENT: 'process-group' } : {};
  const prompt = ['scenario: attack', ...moves(where)].join('\n');
  const ran = await runStatecraft(['run', where.repository.path, '--adapter', 'fixture', '--prompt', prompt, '--json'], { home: where.home, env });
  const answer = parseJson<Account | { refused: { reason: string } } | { failed: { stage: string } }>(ran);
  // A chain edited during the attempt makes the outcome's append refuse (the chain moved under the
  // lock): then there is no account, and the kept stream is found beside the chain.
  const stream = 'runId' in answer ? await readKeptEvents(answer) : await readNewestAttackStream(where.chain);
  const made = progressDetail(stream, 'attack')['attack'] as Move[];
  return { where, before, answer, moves: made };
}

/** The events of the attack's own kept stream, when no account names it. */
async function readNewestAttackStream(chain: string): Promise<Record<string, unknown>[]> {
  const attempts = join(chain, '..', 'attempts');
  for (const runId of (await readdir(attempts)).sort().reverse()) {
    const path = join(attempts, runId, '1', 'stream.ndjson');
    const text = await readFile(path, 'utf8').catch(() => '');
    if (text.includes('"attack"')) return readKeptEvents({ artifacts: { stream: { path } } });
  }
  throw new Error(`no kept stream of the attack under ${attempts}`);
}

/** The record verifies, the qualifications and the checkout are as they were (R8.4, R12). */
async function expectRecordsAndCheckoutWhole(where: Where, before: Observed): Promise<void> {
  const list = await runStatecraft(['run', 'list', where.repository.path, '--json'], { home: where.home });
  expect(list.exitCode).toBe(0);
  expect(parseJson<{ attempts: unknown[] }>(list).attempts).toHaveLength(2);
  const after = await observe(where);
  expect(after.qualifications).toBe(before.qualifications);
  expect(after.status).toBe(before.status);
  expect(after.head).toBe(before.head);
  // Append-only: the chain as it was is a prefix of the chain now (the attack's own two records follow).
  expect(after.chain.subarray(0, before.chain.length).equals(before.chain)).toBe(true);
}

function only(moves: Move[]): Move {
  expect(moves).toHaveLength(1);
  return moves[0] as Move;
}

const ATTACKS: { name: string; moves: (where: Where) => string[]; underNone: (where: Where, move: Move, before: Observed) => Promise<void> }[] = [
  {
    name: 'reads the record chain',
    moves: (where) => [`read: ${where.chain}`],
    underNone: (_where, move, before) => {
      expect(move.succeeded).toBe(true);
      expect(move.bytes).toBeGreaterThanOrEqual(before.chain.length);
      return Promise.resolve();
    },
  },
  {
    name: 'appends a forged record to the chain',
    moves: (where) => [`append: ${where.chain}`],
    underNone: async (where, move) => {
      expect(move.succeeded).toBe(true);
      expect(await readFile(where.chain, 'utf8')).toContain('"kind":"forged"');
      // The forged line breaks the chain's links: run list refuses.
      expect((await runStatecraft(['run', 'list', where.repository.path, '--json'], { home: where.home })).exitCode).toBe(2);
    },
  },
  {
    name: 'truncates the chain',
    moves: (where) => [`truncate: ${where.chain}`],
    underNone: async (where, move, before) => {
      expect(move.succeeded).toBe(true);
      expect((await stat(where.chain)).size).toBeLessThan(before.chain.length);
    },
  },
  {
    name: 'writes a qualification record',
    moves: (where) => [`write: ${join(where.home, 'qualifications', 'forged.json')}`],
    underNone: async (where, move, before) => {
      expect(move.succeeded).toBe(true);
      expect((await runStatecraft(['qualifications', 'list', '--json'], { home: where.home })).stdout).not.toBe(before.qualifications);
    },
  },
  {
    name: "writes the operator's checkout by absolute path",
    moves: (where) => [`write: ${join(where.repository.path, 'forged.txt')}`],
    underNone: async (where, move, before) => {
      expect(move.succeeded).toBe(true);
      expect(await where.repository.git('status', '--porcelain', '--untracked-files=all')).not.toBe(before.status);
    },
  },
  {
    name: 'signals the supervisor',
    moves: () => ['signal: supervisor'],
    underNone: async (where, move) => {
      expect(move.succeeded).toBe(true);
      expect(move.pid).toBe(await supervisorPidOf(where.chain));
    },
  },
];

/** The supervisor's pid, as the attack's intent recorded it. */
async function supervisorPidOf(chain: string): Promise<number> {
  const intents = (await readFile(chain, 'utf8'))
    .split('\n')
    .filter((line) => line.includes('"kind":"intent"'))
    .map((line) => JSON.parse(line) as { supervisor: { pid: number } });
  const last = intents.at(-1);
  if (last === undefined) throw new Error(`no intent in ${chain}`);
  return last.supervisor.pid;
}

describe('a hostile adapter under the protected evidence boundary (R12)', () => {
  for (const entry of ATTACKS) {
    it(`is denied when it ${entry.name}; the chain verifies, qualifications and the checkout are unchanged`, async () => {
      const { where, before, answer, moves } = await attack('bwrap', entry.moves);
      if (!('runId' in answer)) throw new Error(`the attack's run did not conclude: ${JSON.stringify(answer)}`);
      const account = answer;
      // The path that ran: the boundary, its probe held in full.
      expect(account.posture.boundary.mechanism).toBe('bwrap');
      expect(account.posture.boundary.probe?.every((check) => check.held)).toBe(true);
      expect(account.posture.containment.mechanism).toBe('bwrap');
      const move = only(moves);
      if (move.move === 'signal') {
        // Inside its own PID namespace the adapter's parent is the sandbox's init, never the supervisor.
        expect(move.pid).not.toBe(await supervisorPidOf(where.chain));
        expect(move.command ?? '').toMatch(/^\S*bwrap /);
        expect(move.command ?? '').not.toMatch(/bin\/statecraft|dist\/bundle/);
      } else {
        expect(move.succeeded).toBe(false);
        expect(['EACCES', 'EROFS', 'EPERM', 'ENOENT']).toContain(move.error);
      }
      await expectRecordsAndCheckoutWhole(where, before);
    });

    it(`succeeds with --boundary none when it ${entry.name}, and the posture says none (the test above can fail)`, async () => {
      const { where, before, answer, moves } = await attack('none', entry.moves);
      // The posture says none; or, when the attack edited the chain under the lock, the outcome's
      // append fails because the chain was edited — the attack reached the chain either way.
      if ('runId' in answer) expect(answer.posture.boundary.mechanism).toBe('none');
      else expect(answer).toMatchObject({ failed: { stage: 'outcome', message: expect.stringContaining('the chain was edited') as unknown } });
      await entry.underNone(where, only(moves), before);
    });
  }
});
