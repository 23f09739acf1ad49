import type { ChainEntry, IntentRecord, OutcomeRecord } from '@statecraft/records';
import { checkKeptFile } from '@statecraft/records';
import { foldAttempts } from '@statecraft/records';
import { attemptFilesElsewhere, namedElsewhereByRecord } from '@statecraft/records';
import { compareRecordsWithKeptFiles, describeFieldDisagreements } from '@statecraft/records';

/**
 * Why the outcome about to be judged is not its attempt's own, or `undefined` when it is (R13.1:
 * only a completed attempt is judged, and a record is not an attempt). One relinked line appended
 * for a killed attempt, naming a good attempt's stream and result, would read `completed` and be
 * judged: `accept` would mint a real receipt for an attempt that never finished. So, before anything is judged: every file the intent and outcome name must be where
 * that attempt keeps it; and a `completed` outcome must agree with the attempt's own kept
 * result.json (its digest, then every field the record copies of it) — a killed attempt has none,
 * and the record was written from it. The stream is not read here (doctor reads it): the result
 * is small, and it alone is what the outcome is copied from.
 */
export function outcomeNotItsOwn(
  chain: string,
  targetDirectory: string,
  intent: ChainEntry & { record: IntentRecord },
  outcome: ChainEntry & { record: OutcomeRecord },
): string | undefined {
  const elsewhere = attemptFilesElsewhere(intent, outcome);
  if (elsewhere.length > 0) {
    const named = namedElsewhereByRecord(targetDirectory, elsewhere).map(
      ({ record, line, files }) => `its ${record} record (chain line ${line}) names ${files}`,
    );
    return `its evidence is not its own: ${named.join('; and ')}`;
  }
  if (outcome.record.outcome !== 'completed') return undefined;
  const [account] = foldAttempts(chain, targetDirectory, [intent, outcome], 'none');
  if (account === undefined || account.artifacts.result === 'not-recorded') return undefined;
  const result = account.artifacts.result;
  const state = checkKeptFile(result);
  if (state !== 'verified') {
    const what = state === 'missing' ? 'is missing or cannot be read' : 'does not have the digest the outcome holds';
    return `its outcome (line ${outcome.lineNumber}) reads completed, but the attempt's own kept result ${result.path} ${what}: the outcome is not the one its attempt's supervisor recorded`;
  }
  const disagreements = compareRecordsWithKeptFiles(account, intent, outcome).filter((found) => found.record === 'outcome');
  if (disagreements.length === 0) return undefined;
  const fields = disagreements.map((found) => describeFieldDisagreements(found.fields)).join('; ');
  return `its outcome (line ${outcome.lineNumber}) disagrees with the attempt's own kept result ${result.path} (digest verified): ${fields}; the record was rewritten after the attempt`;
}
