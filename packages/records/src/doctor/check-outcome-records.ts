import type { ChainEntry } from '../chain/open-chain.js';
import type { OutcomeRecord } from '../chain/record-schemas.js';
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
 * list-attempts.ts, accept-attempt.ts); a later one is a finding naming both lines: a relinked
 * copy of a failed attempt's own outcome, appended, would otherwise read as completed and never
 * judged, the failed verdict gone, while every path in it is the attempt's own. An outcome that
 * names no intent before it, or an intent of another run or attempt than its own `runId` and `attempt`, is a finding too: run show and
 * run list pair an outcome with its intent by the intent's digest, accept by the digest and the run
 * id, so such a record would read as concluded to one and not to the other. `only`: the findings about one
 * attempt (`run show`), the attempt an outcome names or the one whose intent it names.
 */
export function checkOutcomeRecords(chain: string, entries: readonly ChainEntry[], only?: { runId: string; attempt: number }): OutcomeRecordFinding[] {
  const intents = new Map<string, ChainEntry>();
  const firstOutcomes = new Map<string, OutcomeEntry>();
  const found: OutcomeRecordFinding[] = [];
  const concerns = (of: { runId: string; attempt: number }) => only === undefined || (only.runId === of.runId && only.attempt === of.attempt);
  for (const entry of entries) {
    if (entry.record.kind === 'intent') intents.set(entry.digest, entry);
    if (entry.record.kind !== 'outcome') continue;
    const outcome = entry as OutcomeEntry;
    const named = intents.get(outcome.record.intent);
    const namedIntent = named?.record.kind === 'intent' ? { entry: named, runId: named.record.runId, attempt: named.record.attempt } : undefined;
    if (namedIntent === undefined || namedIntent.runId !== outcome.record.runId || namedIntent.attempt !== outcome.record.attempt) {
      const own = { runId: outcome.record.runId, attempt: outcome.record.attempt };
      if (concerns(own) || (namedIntent !== undefined && concerns(namedIntent))) {
        const at = namedIntent ?? own;
        found.push({ runId: at.runId, attempt: at.attempt, finding: outcomeDisagreesWithIntent(chain, outcome, namedIntent) });
      }
      // One naming no intent concludes nothing; one naming another attempt's intent is still that
      // intent's first or second outcome, as run show and run list pair it.
      if (namedIntent === undefined) continue;
    }
    const first = firstOutcomes.get(outcome.record.intent);
    if (first === undefined) {
      firstOutcomes.set(outcome.record.intent, outcome);
      continue;
    }
    const intent = intents.get(outcome.record.intent);
    if (intent?.record.kind !== 'intent') continue;
    const { runId, attempt } = intent.record;
    if (!concerns({ runId, attempt })) continue;
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

function outcomeDisagreesWithIntent(chain: string, outcome: OutcomeEntry, intent: { entry: ChainEntry; runId: string; attempt: number } | undefined): Finding {
  const own = `run ${outcome.record.runId} attempt ${outcome.record.attempt}`;
  const what =
    intent === undefined
      ? `names the intent ${outcome.record.intent.slice(0, 12)}…, which no record before it is`
      : `concludes the intent at line ${intent.entry.lineNumber}, which is run ${intent.runId} attempt ${intent.attempt}'s`;
  return {
    kind: 'outcome-disagrees-with-intent',
    path: chain,
    message:
      `${own}: the outcome record (${chain} line ${outcome.lineNumber}) ${what}: statecraft writes an outcome for its own ` +
      `intent only, so no supervisor wrote this record (doctor repairs nothing)`,
  };
}
