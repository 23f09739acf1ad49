import { describe, expect, it } from 'vitest';
import { foldAttempts } from '@statecraft/records';
import type { ChainEntry } from '@statecraft/records';
import { sampleIntent } from './sample-records.js';

function intentEntry(attempt: number, line: number): ChainEntry {
  return {
    record: { ...sampleIntent(attempt), prev: 'genesis', seq: line - 1, format: 1 } as unknown as ChainEntry['record'],
    digest: `${attempt}`.repeat(64),
    lineNumber: line,
  };
}

describe('folding the chain into accounts (R8.3)', () => {
  it('an intent with no outcome is dangling, and every outcome field reads not-recorded — never completed', () => {
    const [account] = foldAttempts('/home/chain.jsonl', '/home', [intentEntry(1, 1)], 'none');
    expect(account).toMatchObject({
      state: 'dangling',
      outcome: 'not-recorded',
      refusalCount: 'not-recorded',
      refusals: 'not-recorded',
      providerClaim: 'not-recorded',
      cost: 'not-recorded',
      timedOut: 'not-recorded',
      streamError: 'not-recorded',
      headCommit: 'not-recorded',
      records: { outcome: 'not-recorded' },
    });
  });

  it('an intent whose supervisor still holds the lock is running, not dangling', () => {
    const [account] = foldAttempts('/home/chain.jsonl', '/home', [intentEntry(1, 1)], { runId: '20261130T040000Z-abcdef', attempt: 1 });
    expect(account?.state).toBe('running');
  });

  it('artifact paths are made absolute against the target directory', () => {
    const [account] = foldAttempts('/home/t/chain.jsonl', '/home/t', [intentEntry(1, 1)], 'none');
    expect(account?.artifacts.request.path).toBe('/home/t/attempts/20261130T040000Z-abcdef/1/request.json');
    expect(account?.artifacts.result).toBe('not-recorded');
  });

  it("artifact paths are the attempt's own, derived from its run and number, whatever path the record holds", () => {
    const entry = intentEntry(1, 1);
    const record = entry.record as unknown as { artifacts: { request: { path: string } } };
    record.artifacts.request.path = 'attempts/20261130T040000Z-other0/1/request.json';
    const [account] = foldAttempts('/home/t/chain.jsonl', '/home/t', [entry], 'none');
    expect(account?.artifacts.request.path).toBe('/home/t/attempts/20261130T040000Z-abcdef/1/request.json');
  });
});
