import { runGit } from '../git/git.js';
import type { AttemptAccount } from './attempt-account.js';

/**
 * Whether the attempt's recorded head is still the tip of its run's branch: `current`; `stale`
 * when a later attempt (or anyone) moved the branch on — the record is for a revision that is no
 * longer current (R8.3); `not-recorded` when the attempt recorded no head or the branch is gone.
 * Read-only: one `git rev-parse` in the target.
 */
export async function readWorkspaceFreshness(account: Pick<AttemptAccount, 'target' | 'branch' | 'headCommit'>): Promise<'current' | 'stale' | 'not-recorded'> {
  if (account.headCommit === 'not-recorded') return 'not-recorded';
  const tip = await runGit(account.target, ['rev-parse', '--verify', '--quiet', `refs/heads/${account.branch}`]).catch(() => undefined);
  if (tip === undefined || !tip.ok || tip.stdout === '') return 'not-recorded';
  return tip.stdout === account.headCommit ? 'current' : 'stale';
}
