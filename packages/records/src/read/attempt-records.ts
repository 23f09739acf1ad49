import type { ChainEntry } from '../chain/open-chain.js';
import type { IntentRecord, OutcomeRecord } from '../chain/record-schemas.js';
import type { AttemptAccount } from './attempt-account.js';

/** The chain's entries by the sha256 of their lines, as accounts name their records. */
export function entriesByDigest(entries: readonly ChainEntry[]): ReadonlyMap<string, ChainEntry> {
  return new Map(entries.map((entry) => [entry.digest, entry]));
}

/**
 * One attempt's intent and outcome records, found in the chain by the digests its account holds:
 * what doctor and `run show` compare with the kept files and the paths the attempt keeps them at.
 * `undefined` when no intent record has the account's digest; `outcome` undefined while none does.
 */
export function attemptRecordsOf(
  account: AttemptAccount,
  byDigest: ReadonlyMap<string, ChainEntry>,
): { intent: ChainEntry & { record: IntentRecord }; outcome: (ChainEntry & { record: OutcomeRecord }) | undefined } | undefined {
  const intent = byDigest.get(account.records.intent.sha256);
  const outcome = account.records.outcome === 'not-recorded' ? undefined : byDigest.get(account.records.outcome.sha256);
  if (intent?.record.kind !== 'intent') return undefined;
  return {
    intent: intent as ChainEntry & { record: IntentRecord },
    outcome: outcome?.record.kind === 'outcome' ? (outcome as ChainEntry & { record: OutcomeRecord }) : undefined,
  };
}
