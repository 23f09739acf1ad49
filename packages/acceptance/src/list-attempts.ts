import type { AcceptanceVerdict, ChainEntry, ChainSummary, TornTail } from '@statecraft/run';
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
  /** The latest acceptance's verdict; `not-attempted` for an attempt that did not complete; `not-recorded` when never judged. */
  acceptance: AcceptanceVerdict | 'not-recorded';
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
  const outcomes = new Map<string, Extract<ChainSummary, { kind: 'outcome' }> & { digest: string }>();
  const verdicts = new Map<string, AcceptanceVerdict>();
  for (const { record, digest } of entries) {
    if (record.kind === 'outcome') outcomes.set(record.intent, { ...record, digest });
    if (record.kind === 'acceptance') verdicts.set(record.outcome, record.verdict);
  }
  const summaries: AttemptSummary[] = [];
  for (const { record, digest } of entries) {
    if (record.kind !== 'intent') continue;
    const outcome = outcomes.get(digest);
    const verdict = outcome === undefined ? undefined : (verdicts.get(outcome.digest) ?? (outcome.outcome === 'completed' ? undefined : 'not-attempted'));
    const isLive = live !== 'none' && live.runId === record.runId && live.attempt === record.attempt;
    summaries.push({
      runId: record.runId,
      attempt: record.attempt,
      state: outcome !== undefined ? 'concluded' : isLive ? 'running' : 'dangling',
      // A failed acceptance makes the attempt read `failed` (R13.4), as `run show` does.
      outcome: verdict === 'failed' ? 'failed' : (outcome?.outcome ?? 'not-recorded'),
      cause: outcome?.cause ?? 'not-recorded',
      refusalCount: outcome?.refusalCount ?? 'not-recorded',
      cost: outcome?.cost ?? 'not-recorded',
      timedOut: outcome?.timedOut ?? 'not-recorded',
      startedAt: record.at,
      adapter: `${record.adapter.name} ${record.adapter.version}`,
      qualification: record.qualification,
      acceptance: verdict ?? 'not-recorded',
    });
  }
  return summaries;
}
