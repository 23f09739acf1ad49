import { join } from 'node:path';
import { dir, type DirectoryResult } from 'tmp-promise';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  appendRecord,
  foldAttempts,
  openChain,
  openChainSummaries,
  openChainToAppend,
  rankAttempts,
  rankKeyed,
  selectionOf,
  type AttemptAccount,
  type ChainPosition,
  type RankedAttempt,
  type UnlinkedRecord,
} from '@statecraft/records';
import { sampleIntent } from './sample-records.js';

/** An account with only the fields the rule reads; the rest are irrelevant to it. */
function account(attempt: number, over: Partial<AttemptAccount> & { verdict?: string; paths?: number; lines?: number | 'not-recorded' }): AttemptAccount {
  const { verdict, paths = 1, lines = 10, ...rest } = over;
  return {
    runId: 'r',
    attempt,
    attemptOutcome: 'completed',
    acceptance: verdict === undefined ? 'not-recorded' : { verdict },
    refusalCount: 0,
    cost: 0.5,
    durationMs: 1000,
    providerClaim: 'success',
    candidate: {
      commit: 'c'.repeat(40),
      changedPaths: Array.from({ length: paths }, (_, index) => `p${index}`),
      changedLines: lines === 'not-recorded' ? 'not-recorded' : { added: lines, removed: 0 },
    },
    ...rest,
  } as unknown as AttemptAccount;
}

const order = (ranked: RankedAttempt[]): number[] => ranked.map((entry) => entry.attempt);

describe('the ranking rule: verdict, refusals, change, cost, duration, attempt', () => {
  it('the verdict decides first: accepted, then failed, then no-acceptance, then not-attempted', () => {
    const ranked = rankAttempts([
      account(1, { verdict: 'not-attempted', attemptOutcome: 'interrupted' }),
      account(2, { verdict: 'no-acceptance' }),
      account(3, { verdict: 'failed', refusalCount: 0, paths: 0 }),
      account(4, { verdict: 'accepted', refusalCount: 9, paths: 50, cost: 9, durationMs: 99_000 }),
    ]);
    expect(order(ranked)).toEqual([4, 3, 2, 1]);
  });

  it('each later field breaks only a tie of every earlier one', () => {
    const ranked = rankAttempts([
      account(1, { verdict: 'accepted', durationMs: 5 }),
      account(2, { verdict: 'accepted', cost: 0.1 }),
      account(3, { verdict: 'accepted', lines: 2 }),
      account(4, { verdict: 'accepted', paths: 0, lines: 50 }),
      account(5, { verdict: 'accepted', refusalCount: 3, paths: 0, lines: 0 }),
      account(6, { verdict: 'accepted' }),
    ]);
    // 4: fewest paths; 3: fewest lines; 2: lowest cost; 1: shortest; 6: the tie, by number; 5: most refusals.
    expect(order(ranked)).toEqual([4, 3, 2, 1, 6, 5]);
  });

  it('a value not recorded ranks after every recorded one; an unknown cost after every known one', () => {
    const ranked = rankAttempts([
      account(1, { cost: 'unknown' }),
      account(2, { cost: 3 }),
      account(3, { refusalCount: 'not-recorded', cost: 0 }),
      account(4, { lines: 'not-recorded', cost: 0 }),
    ]);
    expect(order(ranked)).toEqual([2, 1, 4, 3]);
  });

  it('an attempt that did not complete and was never judged ranks as not-attempted, below one completed and not judged', () => {
    const ranked = rankAttempts([account(1, { attemptOutcome: 'interrupted', paths: 0 }), account(2, { paths: 9 })]);
    expect(ranked.map((entry) => [entry.attempt, entry.key.verdict])).toEqual([
      [2, 'not-judged'],
      [1, 'not-attempted'],
    ]);
  });

  it("the agent's claims never enter the rule: only the provider's claim differs, the attempt number decides", () => {
    const ranked = rankAttempts([account(1, { providerClaim: 'error' } as never), account(2, { providerClaim: 'success' } as never)]);
    expect(order(ranked)).toEqual([1, 2]);
  });

  it('recomputed from the recorded keys alone, the order is the same', () => {
    const ranked = rankAttempts([account(1, { verdict: 'failed' }), account(2, { verdict: 'accepted', cost: 'unknown' }), account(3, { verdict: 'accepted' })]);
    const recomputed = rankKeyed([...ranked].reverse());
    expect(order(recomputed)).toEqual(order(ranked));
    expect(order(ranked)).toEqual([3, 2, 1]);
  });
});

describe('the selection record in the chain', () => {
  let scratch: DirectoryResult;
  let chain: string;
  beforeEach(async () => {
    scratch = await dir({ unsafeCleanup: true, prefix: 'statecraft-selection' });
    chain = join(scratch.path, 'targets', 'k', 'chain.jsonl');
  });
  afterEach(async () => {
    await scratch.cleanup();
  });

  it('is appended after the attempts, read whole and by the summary, and the next append starts from it', async () => {
    let position: ChainPosition = { head: 'genesis', nextSeq: 0, length: 0, torn: 'none' };
    for (const attempt of [1, 2]) position = (await appendRecord(chain, position, sampleIntent(attempt) as UnlinkedRecord)).position;
    const whole = await openChain(chain);
    if (whole.kind !== 'opened') throw new Error(whole.kind);
    const accounts = foldAttempts(chain, scratch.path, whole.entries, 'none');
    const selection = selectionOf('20261130T040000Z-abcdef', accounts, new Date('2026-12-06T00:00:00Z'));
    expect(selection.chosen).toEqual({ runId: '20261130T040000Z-abcdef', attempt: 1 });
    position = (await appendRecord(chain, position, selection)).position;
    const reread = await openChain(chain);
    expect(reread.kind).toBe('opened');
    if (reread.kind !== 'opened') return;
    expect(reread.entries.at(-1)?.record).toMatchObject({ kind: 'selection', rule: { version: 1 }, ranked: selection.ranked });
    const summaries = await openChainSummaries(chain);
    expect(summaries.kind).toBe('opened');
    if (summaries.kind !== 'opened') return;
    expect(summaries.entries.at(-1)?.record).toMatchObject({ kind: 'selection', runId: '20261130T040000Z-abcdef' });
    // The checkpoint written after the selection is usable: the next opening to append agrees with it.
    const toAppend = await openChainToAppend(chain);
    expect(toAppend).toMatchObject({ kind: 'opened', head: position.head, nextSeq: 3 });
    await appendRecord(chain, position, sampleIntent(3) as UnlinkedRecord);
  });
});
