import { runGit } from '../git/git.js';
import type { ChainEntry } from '../chain/open-chain.js';
import type { LandRecord } from '../chain/land-record.js';

/** What a receipt's freshness reads of a landing: where the candidate went and what that branch got. */
export type Landing = Pick<LandRecord, 'runId' | 'attempt' | 'candidate' | 'branch' | 'commit'>;

/** The land records of a verified chain. */
export function landingsIn(entries: readonly ChainEntry[]): Landing[] {
  return entries.flatMap((entry) => (entry.record.kind === 'land' ? [entry.record] : []));
}

/**
 * Whether a landing of this attempt's candidate is still in the branch it landed on (R13.6): the
 * commit the land record names is reachable from that branch. A landed receipt stays current
 * whatever becomes of the run's own branch, which `prune`, or the operator, may delete once the
 * work is theirs (docs/decisions/0171-land-keeps-the-receipt-current.md). Read-only git calls.
 */
export async function readLandedIsReachable(target: string, landings: readonly Landing[], runId: string, attempt: number, candidate: string): Promise<boolean> {
  for (const landing of landings) {
    if (landing.runId !== runId || landing.attempt !== attempt || landing.candidate !== candidate) continue;
    const reachable = await runGit(target, ['merge-base', '--is-ancestor', landing.commit, landing.branch]).catch(() => undefined);
    if (reachable?.ok === true) return true;
  }
  return false;
}
