import type { ChainEntry, ChainSummary, TornTail } from '@statecraft/run';
import type { LiveHolder } from './fold-attempts.js';
import type { AttemptAccount } from './attempt-account.js';

/** One line of `run list`: enough to pick an attempt to show. */
export interface AttemptSummary {
  runId: string;
  attempt: number;
  state: AttemptAccount['state'];
  outcome: AttemptAccount['outcome'];
  cause: AttemptAccount['cause'];
  refusalCount: AttemptAccount['refusalCount'];
  cost: AttemptAccount['cost'];
  timedOut: AttemptAccount['timedOut'];
  startedAt: string;
  adapter: string;
  qualification: AttemptAccount['posture']['qualification']['verdict'];
}

export interface AttemptList {
  target: string;
  chain: string;
  /** A torn final line: reported here, truncated by the next `run` before it appends (R8.4). */
  tornTail: 'none' | TornTail;
  attempts: AttemptSummary[];
}

/**
 * One summary per attempt from summary-read records (R8.3): an intent with no outcome is
 * `dangling` (or `running` while its supervisor holds the lock), never completed.
 */
export function summarizeChain(entries: readonly ChainEntry<ChainSummary>[], live: LiveHolder): AttemptSummary[] {
  const outcomes = new Map<string, Extract<ChainSummary, { kind: 'outcome' }>>();
  for (const { record } of entries) if (record.kind === 'outcome') outcomes.set(record.intent, record);
  const summaries: AttemptSummary[] = [];
  for (const { record, digest } of entries) {
    if (record.kind !== 'intent') continue;
    const outcome = outcomes.get(digest);
    const isLive = live !== 'none' && live.runId === record.runId && live.attempt === record.attempt;
    summaries.push({
      runId: record.runId,
      attempt: record.attempt,
      state: outcome !== undefined ? 'concluded' : isLive ? 'running' : 'dangling',
      outcome: outcome?.outcome ?? 'not-recorded',
      cause: outcome?.cause ?? 'not-recorded',
      refusalCount: outcome?.refusalCount ?? 'not-recorded',
      cost: outcome?.cost ?? 'not-recorded',
      timedOut: outcome?.timedOut ?? 'not-recorded',
      startedAt: record.at,
      adapter: `${record.adapter.name} ${record.adapter.version}`,
      qualification: record.qualification,
    });
  }
  return summaries;
}
