import type { AttemptStart } from '@statecraft/adapter';
import { whatEarlierCommitIs, type EarlierCandidate } from './attempt-start.js';
import type { Candidate } from '@statecraft/records';

/**
 * Who made a completed attempt's candidate (R13.2), told from the workspace as the attempt found
 * it (`start`), never from a commit's author, which whoever commits chooses:
 * - a work tree left dirty is committed by statecraft (`statecraft`);
 * - a clean tree whose HEAD is where the attempt started is what the attempt inherited (`earlier`:
 *   the base, an earlier attempt's candidate, or another commit on the branch);
 * - HEAD moved during the attempt (possible only outside the boundary) back to the base or an
 *   earlier candidate is `earlier` too; to any other commit, `agent`.
 */
export function whoMadeCandidate(input: {
  dirty: boolean;
  commit: string;
  baseCommit: string;
  start: AttemptStart;
  earlier: readonly EarlierCandidate[];
}): Pick<Candidate, 'madeBy' | 'earlier'> {
  if (input.dirty) return { madeBy: 'statecraft', earlier: 'not-applicable' };
  if (input.commit === input.start.commit) return { madeBy: 'earlier', earlier: input.start.is };
  const known = whatEarlierCommitIs(input.commit, input.baseCommit, input.earlier);
  return known === 'other' ? { madeBy: 'agent', earlier: 'not-applicable' } : { madeBy: 'earlier', earlier: known };
}
