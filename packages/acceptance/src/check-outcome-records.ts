import type { ChainEntry, OutcomeRecord } from '@statecraft/run';
import type { Finding } from './examine-product-home.js';

type OutcomeEntry = ChainEntry & { record: OutcomeRecord };

/** A finding about one outcome record, with the attempt whose intent it names, so `run show` can pick its own. */
export interface OutcomeRecordFinding {
  runId: string;
  attempt: number;
  finding: Finding;
}

/**
 * Outcome records against what `run` writes: one outcome per intent, appended once when the attempt
 * ends (conclude-attempt.ts). Every reader pairs an intent with its first outcome (fold-attempts.ts,
 * list-attempts.ts, accept-attempt.ts); a later one is a finding naming both lines. A relinked
 * copy of a failed attempt's own outcome, appended, once made run show and run list read it
 * completed and never judged, the failed verdict gone, while every path in it was the attempt's own
 * and doctor found nothing (review, 2026-12-02). `only`: the findings about one attempt (`run show`).
 */
export function checkOutcomeRecords(chain: string, entries: readonly ChainEntry[], only?: { runId: string; attempt: number }): OutcomeRecordFinding[] {
  const intents = new Map<string, ChainEntry>();
  const firstOutcomes = new Map<string, OutcomeEntry>();
  const found: OutcomeRecordFinding[] = [];
  for (const entry of entries) {
    if (entry.record.kind === 'intent') intents.set(entry.digest, entry);
    if (entry.record.kind !== 'outcome') continue;
    const outcome = entry as OutcomeEntry;
    const first = firstOutcomes.get(outcome.record.intent);
    if (first === undefined) {
      firstOutcomes.set(outcome.record.intent, outcome);
      continue;
    }
    const intent = intents.get(outcome.record.intent);
    if (intent?.record.kind !== 'intent') continue;
    const { runId, attempt } = intent.record;
    if (only !== undefined && (only.runId !== runId || only.attempt !== attempt)) continue;
    found.push({ runId, attempt, finding: secondOutcome(chain, { runId, attempt }, intent.lineNumber, first, outcome) });
  }
  return found;
}

function secondOutcome(chain: string, attempt: { runId: string; attempt: number }, intentLine: number, first: OutcomeEntry, second: OutcomeEntry): Finding {
  return {
    kind: 'second-outcome',
    path: chain,
    message:
      `run ${attempt.runId} attempt ${attempt.attempt}: the outcome record (${chain} line ${second.lineNumber}) concludes the intent at line ${intentLine}, ` +
      `which the outcome at line ${first.lineNumber} already concluded (${first.record.outcome}): statecraft writes one outcome per intent, so no supervisor ` +
      `wrote this record; run show, run list and accept read the first (doctor repairs nothing)`,
  };
}
