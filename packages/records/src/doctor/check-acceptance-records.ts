import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { AcceptanceRecord } from '../chain/acceptance-record.js';
import type { ChainEntry } from '../chain/open-chain.js';
import type { OutcomeRecord } from '../chain/record-schemas.js';
import { entriesByDigest } from '../read/attempt-records.js';
import type { Finding } from './examine-product-home.js';
import { isFinalVerdict } from '../read/earlier-final-verdict.js';
import { acceptanceFilesElsewhere, describeEvidenceElsewhere } from '../read/own-evidence-paths.js';
import { receiptAgainstRecord } from './receipt-against-record.js';
import { describeFieldDisagreements } from '../read/records-against-kept-files.js';

type AcceptanceEntry = ChainEntry & { record: AcceptanceRecord };
type OutcomeEntry = ChainEntry & { record: OutcomeRecord };

/** A finding about one acceptance record, with the attempt it concerns (the one whose outcome it names), so `run show` can pick its own. */
export interface AcceptanceRecordFinding {
  runId: string;
  attempt: number;
  finding: Finding;
}

/**
 * Every acceptance record against what statecraft writes when it judges (doctor; `run show` for
 * the attempt it shows). A relinked line appended to the chain, reusing another attempt's receipt
 * and check outputs by path, would otherwise turn a failed attempt into `accepted` everywhere. Each
 * of these is a finding:
 * - a verdict recorded after a final one of the same outcome (`accept` never judges it again);
 * - a receipt or check output outside the judged attempt's own `acceptance-N` (own-evidence-paths.ts);
 * - a record whose run, attempt or candidate, or whose receipt's attempt or candidate, is not the
 *   outcome's it names (or that names no outcome of the chain);
 * - a receipt.json whose content is not the record's receipt (receipt-against-record.ts).
 * Read-only; the receipt file is read once, within the record bound. `only`: the findings about one
 * attempt (`run show`), every record still read for the final verdicts before it.
 */
export function checkAcceptanceRecords(
  chain: string,
  targetDirectory: string,
  entries: readonly ChainEntry[],
  only?: { runId: string; attempt: number },
): AcceptanceRecordFinding[] {
  const byDigest = entriesByDigest(entries);
  const finalVerdicts = new Map<string, AcceptanceEntry>();
  const found: AcceptanceRecordFinding[] = [];
  for (const entry of entries) {
    if (entry.record.kind !== 'acceptance') continue;
    const acceptance = entry as AcceptanceEntry;
    const record = acceptance.record;
    const outcome = byDigest.get(record.outcome);
    if (outcome?.record.kind !== 'outcome') {
      if (only !== undefined && (only.runId !== record.runId || only.attempt !== record.attempt)) continue;
      const message = `names the outcome ${record.outcome}, which no outcome record of the chain has: it judges nothing this chain holds`;
      found.push(ofRecord(record, disagreesWithOutcome(chain, record, acceptance.lineNumber, message)));
      continue;
    }
    const judged = attemptJudged(outcome as OutcomeEntry, byDigest);
    const about = (finding: Finding): AcceptanceRecordFinding => ({ ...judged, finding });
    const earlier = finalVerdicts.get(record.outcome);
    if (earlier === undefined && isFinalVerdict(record.verdict)) finalVerdicts.set(record.outcome, acceptance);
    if (only !== undefined && (only.runId !== judged.runId || only.attempt !== judged.attempt)) continue;
    if (earlier !== undefined) found.push(about(verdictAfterFinal(chain, judged, acceptance, earlier)));
    const wrong = identityDisagreements(record, outcome as OutcomeEntry, judged);
    if (wrong.length > 0)
      found.push(
        about(disagreesWithOutcome(chain, judged, acceptance.lineNumber, `judges the outcome at line ${outcome.lineNumber}, but ${wrong.join('; ')}`)),
      );
    const elsewhere = acceptanceFilesElsewhere(acceptance, judged);
    found.push(...describeEvidenceElsewhere(chain, judged, elsewhere).map(about));
    if (!elsewhere.some((item) => item.file === 'receipt.json')) {
      const fields = receiptAgainstRecord(targetDirectory, record);
      if (fields.length > 0 && record.receiptFile !== 'none') {
        const file = join(targetDirectory, record.receiptFile.path);
        found.push(
          about({
            kind: 'record-disagrees-with-kept-file',
            path: file,
            message: `run ${judged.runId} attempt ${judged.attempt}: the acceptance record (${chain} line ${acceptance.lineNumber}) disagrees with the kept ${file} (digest verified): ${describeFieldDisagreements(fields)}; the record was rewritten after the judgement`,
          }),
        );
      }
    }
  }
  return found;
}

/** The attempt an acceptance judges, found by the outcome it names; `undefined` when no outcome of the chain has that digest. */
export function attemptJudgedBy(record: AcceptanceRecord, byDigest: ReadonlyMap<string, ChainEntry>): JudgedAttempt | undefined {
  const outcome = byDigest.get(record.outcome);
  return outcome?.record.kind === 'outcome' ? attemptJudged(outcome as OutcomeEntry, byDigest) : undefined;
}

interface JudgedAttempt {
  runId: string;
  attempt: number;
  /** The sha256 of the intent's and the outcome's lines. */
  intent: string;
  outcome: string;
}

/** The attempt an outcome concludes: its intent's run and number (the outcome's own if its intent is not in the chain), and both digests. */
function attemptJudged(outcome: OutcomeEntry, byDigest: ReadonlyMap<string, ChainEntry>): JudgedAttempt {
  const intent = byDigest.get(outcome.record.intent);
  const of = intent?.record.kind === 'intent' ? intent.record : outcome.record;
  return { runId: of.runId, attempt: of.attempt, intent: outcome.record.intent, outcome: outcome.digest };
}

/** What the record, or its receipt, says of the attempt and the candidate that the outcome it names does not. */
function identityDisagreements(record: AcceptanceRecord, outcome: OutcomeEntry, judged: JudgedAttempt): string[] {
  const wrong: string[] = [];
  if (record.runId !== judged.runId || record.attempt !== judged.attempt)
    wrong.push(`it names run ${record.runId} attempt ${record.attempt}, while that outcome concludes run ${judged.runId} attempt ${judged.attempt}`);
  const candidate = outcome.record.candidate ?? 'not-recorded';
  // A judgement records the outcome's own candidate, or none when there was nothing to judge (judge-attempt.ts).
  if (record.candidate !== 'not-recorded' && !isDeepStrictEqual(record.candidate, candidate))
    wrong.push(
      `its candidate ${record.candidate.commit} is not the outcome's (${typeof candidate === 'string' ? candidate : 'commit' in candidate ? candidate.commit : 'not identified'})`,
    );
  if (record.receipt === 'none') return wrong;
  const bound = record.receipt.attempt;
  if (bound.runId !== judged.runId || bound.attempt !== judged.attempt || bound.intent !== judged.intent || bound.outcome !== judged.outcome)
    wrong.push(
      `its receipt binds run ${bound.runId} attempt ${bound.attempt} (intent ${bound.intent}, outcome ${bound.outcome}), not that attempt's intent ${judged.intent} and outcome ${judged.outcome}`,
    );
  const judgedCandidate = record.candidate === 'not-recorded' ? candidate : record.candidate;
  if (
    typeof judgedCandidate === 'string' ||
    !('commit' in judgedCandidate) ||
    record.receipt.candidate.commit !== judgedCandidate.commit ||
    record.receipt.candidate.tree !== judgedCandidate.tree
  )
    wrong.push(`its receipt binds the candidate ${record.receipt.candidate.commit}, not the one judged`);
  return wrong;
}

function verdictAfterFinal(chain: string, judged: { runId: string; attempt: number }, acceptance: AcceptanceEntry, earlier: AcceptanceEntry): Finding {
  const { verdict, reason } = acceptance.record;
  return {
    kind: 'verdict-after-final-verdict',
    path: chain,
    message:
      `run ${judged.runId} attempt ${judged.attempt}: the acceptance record (${chain} line ${acceptance.lineNumber}) records ${verdict} (${reason}) after the final verdict ` +
      `${earlier.record.verdict} (${earlier.record.reason}) at line ${earlier.lineNumber}: statecraft never judges a final verdict again (accept refuses it, already-judged), ` +
      `so no judgement wrote this record; run show and run list read the final verdict before it (doctor repairs nothing)`,
  };
}

function disagreesWithOutcome(chain: string, attempt: { runId: string; attempt: number }, line: number, what: string): Finding {
  return {
    kind: 'acceptance-disagrees-with-outcome',
    path: chain,
    message: `run ${attempt.runId} attempt ${attempt.attempt}: the acceptance record (${chain} line ${line}) ${what}: a judgement records the attempt and candidate of the outcome it judges, so this record was not written by one (doctor repairs nothing)`,
  };
}

/** A finding about a record whose outcome is not in the chain: filed under the attempt the record itself names. */
function ofRecord(record: AcceptanceRecord, finding: Finding): AcceptanceRecordFinding {
  return { runId: record.runId, attempt: record.attempt, finding };
}
