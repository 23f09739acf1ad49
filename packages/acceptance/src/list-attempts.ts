import type { TornTail } from '@statecraft/run';
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

export function summarizeAttempt(account: AttemptAccount): AttemptSummary {
  return {
    runId: account.runId,
    attempt: account.attempt,
    state: account.state,
    outcome: account.outcome,
    cause: account.cause,
    refusalCount: account.refusalCount,
    cost: account.cost,
    timedOut: account.timedOut,
    startedAt: account.startedAt,
    adapter: `${account.posture.adapter.name} ${account.posture.adapter.version}`,
    qualification: account.posture.qualification.verdict,
  };
}
