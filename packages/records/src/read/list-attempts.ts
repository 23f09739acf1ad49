import type { AcceptanceVerdict } from '../chain/acceptance-record.js';
import type { ChainEntry, TornTail } from '../chain/open-chain.js';
import type { ChainSummary } from '../chain/chain-summary.js';
import { holdsAttempt, type LiveHolder } from './fold-attempts.js';
import type { AttemptAccount } from './attempt-account.js';
import { isFinalVerdict } from './earlier-final-verdict.js';

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
  /** When its outcome was recorded (the outcome record's time), or `not-recorded`: with `startedAt`, how long the attempt took as the chain saw it. */
  concludedAt: string;
  adapter: string;
  qualification: AttemptAccount['posture']['qualification']['verdict'];
  /** The latest acceptance's verdict, or the first final one; `not-attempted` for an attempt that did not complete; `not-recorded` when never judged. */
  acceptance: AcceptanceVerdict | 'not-recorded';
}

export interface AttemptList {
  target: string;
  chain: string;
  /** A torn final line: reported here, truncated by the next `run` before it appends (R8.4). */
  tornTail: 'none' | TornTail;
  attempts: AttemptSummary[];
}

/** One attempt as its records arrive: its summary, and what is settled only at the end. */
interface Attempt {
  /** Its place in the list: how many attempts came before it. */
  index: number;
  summary: AttemptSummary;
  /** The digest of its intent: what its outcomes name. */
  intent: string;
  /** The digest of its first outcome: a later one for the same intent is a finding (check-outcome-records.ts), never the attempt's. */
  outcome: { digest: string; completed: boolean } | undefined;
  /** The latest acceptance of that outcome, or its first final verdict (R13.4). */
  verdict: AcceptanceVerdict | undefined;
}

export interface AttemptSummaries {
  /** The next verified entry of the chain, in chain order. */
  add(entry: ChainEntry<ChainSummary>): void;
  /** Every attempt's summary, in the order of its intent; `live` names the attempt still running. */
  finish(live: LiveHolder): AttemptSummary[];
  /** How many attempts the records so far began. */
  count(): number;
  /**
   * Attempt `index`'s summary as `finish` would give it were no record to follow, as a copy; none
   * while it has no outcome (whether it is running is known only at the end). A later record that
   * changes it calls the `onChange` given to startAttemptSummaries with its index.
   */
  concludedSoFar(index: number): AttemptSummary | undefined;
}

/** What `finish` settles of a concluded attempt: its acceptance, and the outcome a failed acceptance makes `failed` (R13.4). */
function settled({ summary, verdict }: Attempt, concluded: NonNullable<Attempt['outcome']>): Pick<AttemptSummary, 'acceptance' | 'outcome'> {
  const acceptance = verdict ?? (concluded.completed ? 'not-recorded' : 'not-attempted');
  // A failed acceptance makes the attempt read `failed` (R13.4), as `run show` does.
  return { acceptance, outcome: acceptance === 'failed' ? 'failed' : summary.outcome };
}

/**
 * Summarizes records as the chain is verified, keeping one summary per attempt rather than every
 * record: `run list` over 100,000 attempts holds 100,000 small summaries, not 200,000 records.
 * An outcome names the digest of an intent before it and an acceptance that of an outcome before
 * it, so each finds its attempt when it arrives; an attempt's first outcome is its own and the last
 * acceptance of it wins unless a final verdict came first, as in `run show`.
 */
export function startAttemptSummaries(onChange?: (index: number) => void): AttemptSummaries {
  const attempts: Attempt[] = [];
  // An outcome almost always follows its own intent, and acceptances are rare: the indexes by
  // digest are built only when a record names another attempt, then kept up to date. Filling
  // both for every attempt is work `run list` would do for nothing on a long chain.
  let byIntent: Map<string, Attempt> | undefined;
  let byOutcome: Map<string, Attempt> | undefined;
  const attemptOfIntent = (digest: string): Attempt | undefined => {
    const last = attempts[attempts.length - 1];
    if (last?.intent === digest) return last;
    byIntent ??= new Map(attempts.map((attempt) => [attempt.intent, attempt]));
    return byIntent.get(digest);
  };
  // Only an attempt's first outcome is its own, so the index holds the first ones.
  const attemptOfOutcome = (digest: string): Attempt | undefined => {
    byOutcome ??= new Map(attempts.flatMap((attempt) => (attempt.outcome === undefined ? [] : [[attempt.outcome.digest, attempt] as const])));
    return byOutcome.get(digest);
  };
  return {
    add({ record, digest }) {
      if (record.kind === 'intent') {
        const attempt: Attempt = {
          index: attempts.length,
          summary: {
            runId: record.runId,
            attempt: record.attempt,
            state: 'dangling',
            outcome: 'not-recorded',
            cause: 'not-recorded',
            refusalCount: 'not-recorded',
            cost: 'not-recorded',
            timedOut: 'not-recorded',
            startedAt: record.at,
            concludedAt: 'not-recorded',
            adapter: `${record.adapter.name} ${record.adapter.version}`,
            qualification: record.qualification,
            acceptance: 'not-recorded',
          },
          intent: digest,
          outcome: undefined,
          verdict: undefined,
        };
        attempts.push(attempt);
        byIntent?.set(digest, attempt);
      } else if (record.kind === 'outcome') {
        const attempt = attemptOfIntent(record.intent);
        // `run` concludes an intent once: a second outcome changes nothing (accept judges the first).
        if (attempt === undefined || attempt.outcome !== undefined) return;
        // Assigned field by field: an Object.assign of a fresh literal per outcome is a real share of the fold.
        const summary = attempt.summary;
        summary.state = 'concluded';
        summary.outcome = record.outcome;
        summary.cause = record.cause;
        summary.refusalCount = record.refusalCount;
        summary.cost = record.cost;
        summary.timedOut = record.timedOut;
        summary.concludedAt = record.at;
        attempt.outcome = { digest, completed: record.outcome === 'completed' };
        byOutcome?.set(digest, attempt);
        onChange?.(attempt.index);
      } else if (record.kind === 'acceptance') {
        const attempt = attemptOfOutcome(record.outcome);
        // A final verdict stands: one after it is a finding (check-acceptance-records.ts), as in `run show`.
        if (attempt?.outcome?.digest === record.outcome && !isFinalVerdict(attempt.verdict)) {
          attempt.verdict = record.verdict;
          onChange?.(attempt.index);
        }
      }
    },
    finish(live) {
      return attempts.map((attempt) => {
        const { summary, outcome } = attempt;
        if (outcome === undefined) {
          const isLive = holdsAttempt(live, summary.runId, summary.attempt);
          return isLive ? { ...summary, state: 'running' } : summary;
        }
        const { acceptance, outcome: shown } = settled(attempt, outcome);
        summary.acceptance = acceptance;
        summary.outcome = shown;
        return summary;
      });
    },
    count: () => attempts.length,
    concludedSoFar(index) {
      const attempt = attempts[index];
      if (attempt?.outcome === undefined) return undefined;
      return { ...attempt.summary, ...settled(attempt, attempt.outcome) };
    },
  };
}
