import type { ChainEntry } from '../chain/open-chain.js';
import type { AttemptAccount } from '../read/attempt-account.js';
import { entriesByDigest } from '../read/attempt-records.js';
import { checkAcceptanceEvidence, describeAlteredAcceptanceEvidence } from './check-acceptance-evidence.js';
import { checkAcceptanceRecords } from './check-acceptance-records.js';
import { checkOutcomeRecords } from './check-outcome-records.js';
import type { Finding } from './examine-product-home.js';
import { accountFilesElsewhere, describeEvidenceElsewhere } from '../read/own-evidence-paths.js';

/**
 * What doctor finds of one attempt's records that an account's other checks do not carry, for
 * `run show` (and `run`, whose answer extends it): its intent and outcome naming files where the
 * attempt does not keep them, an outcome after its first (check-outcome-records.ts), each of its
 * acceptance records that no judgement wrote as it stands (check-acceptance-records.ts), and each
 * receipt or check output of its acceptances that is no longer the file its record sealed
 * (check-acceptance-evidence.ts, as doctor does, so a receipt.json rewritten after the judgement
 * is a finding here too). The same findings, worded as doctor words them.
 */
export function findAttemptRecordFindings(account: AttemptAccount, targetDirectory: string, entries: readonly ChainEntry[]): Finding[] {
  const chain = account.records.chain;
  return [
    ...describeEvidenceElsewhere(chain, account, accountFilesElsewhere(account, entriesByDigest(entries))),
    ...checkOutcomeRecords(chain, entries, account).map(({ finding }) => finding),
    ...checkAcceptanceRecords(chain, targetDirectory, entries, account).map(({ finding }) => finding),
    ...checkAcceptanceEvidence(targetDirectory, entries, account).map((altered) => describeAlteredAcceptanceEvidence(chain, altered)),
  ];
}

/**
 * The same findings of every attempt's records, for `doctor`, in this order: each account's intent
 * and outcome naming files elsewhere, a second outcome of an intent (R8.4), acceptance records
 * against what a judgement writes (R13.4, R13.6), and their receipts and check outputs re-digested.
 */
export function examineRecordFindings(chain: string, targetDirectory: string, accounts: readonly AttemptAccount[], entries: readonly ChainEntry[]): Finding[] {
  const byDigest = entriesByDigest(entries);
  return [
    ...accounts.flatMap((account) => describeEvidenceElsewhere(chain, account, accountFilesElsewhere(account, byDigest))),
    ...checkOutcomeRecords(chain, entries).map(({ finding }) => finding),
    ...checkAcceptanceRecords(chain, targetDirectory, entries).map(({ finding }) => finding),
    ...checkAcceptanceEvidence(targetDirectory, entries).map((altered) => describeAlteredAcceptanceEvidence(chain, altered)),
  ];
}
