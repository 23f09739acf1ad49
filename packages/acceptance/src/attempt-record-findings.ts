import type { ChainEntry } from '@statecraft/run';
import type { AttemptAccount } from './attempt-account.js';
import { checkAcceptanceRecords } from './check-acceptance-records.js';
import { checkOutcomeRecords } from './check-outcome-records.js';
import type { Finding } from './examine-product-home.js';
import { accountFilesElsewhere, describeEvidenceElsewhere } from './own-evidence-paths.js';
import { entriesByDigest } from './records-against-kept-files.js';

/**
 * What doctor finds of one attempt's records that an account's other checks do not carry, for
 * `run show` (and `run`, whose answer extends it): its intent and outcome naming files where the
 * attempt does not keep them, an outcome after its first (check-outcome-records.ts), and each of
 * its acceptance records that no judgement wrote as it stands (check-acceptance-records.ts). The
 * same findings, worded as doctor words them.
 */
export function findAttemptRecordFindings(account: AttemptAccount, targetDirectory: string, entries: readonly ChainEntry[]): Finding[] {
  const chain = account.records.chain;
  return [
    ...describeEvidenceElsewhere(chain, account, accountFilesElsewhere(account, entriesByDigest(entries))),
    ...checkOutcomeRecords(chain, entries, account).map(({ finding }) => finding),
    ...checkAcceptanceRecords(chain, targetDirectory, entries, account).map(({ finding }) => finding),
  ];
}
