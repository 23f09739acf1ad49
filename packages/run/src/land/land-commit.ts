import { runGit, STATE_DIRECTORY } from '@statecraft/records';
import type { LandMethod } from '@statecraft/records';

export interface LandGitRequest {
  /** The operator's checkout: its current branch receives the candidate. */
  target: string;
  candidate: string;
  /** Whether a merge may fast-forward; `squash` makes one commit holding the merged tree. */
  squash: boolean;
  /** The commit message of a merge or squash commit. */
  message: string;
}

export type LandGitAnswer =
  | { kind: 'landed'; branch: string; before: string; commit: string; method: LandMethod }
  | { kind: 'refused'; reason: 'detached' | 'dirty' | 'conflict' | 'already-landed' | 'state-directory' | 'git-failed'; message: string };

/**
 * Brings `candidate` into the checkout's current branch, authored by the operator's own git
 * identity (their configuration; the commit is theirs, not statecraft's). Every decision is made
 * before anything moves: the merge is computed in the object store (`merge-tree --write-tree`), so a
 * conflict refuses with the branch, index and work tree untouched; the branch then moves by a
 * fast-forward to the commit made there, which git itself refuses before writing anything if a file
 * it would write is in the way. Uncommitted changes to tracked files, or a merge in progress,
 * refuse: the operator's work in progress is never mixed into a landing. So does a candidate that
 * changes statecraft's state directory (changesStateDirectory).
 */
export async function landCandidate(request: LandGitRequest): Promise<LandGitAnswer> {
  const { target, candidate } = request;
  const branch = await runGit(target, ['symbolic-ref', '-q', 'HEAD']);
  if (!branch.ok || !branch.stdout.startsWith('refs/heads/'))
    return { kind: 'refused', reason: 'detached', message: `${target} has no branch checked out (a detached HEAD): check out the branch to land on` };
  const before = await runGit(target, ['rev-parse', '--verify', 'HEAD^{commit}']);
  if (!before.ok) return gitFailed(target, 'rev-parse HEAD', before.stderr);
  const status = await runGit(target, ['status', '--porcelain=v1', '--untracked-files=no', '--ignore-submodules=none']);
  if (!status.ok) return gitFailed(target, 'status', status.stderr);
  const inProgress = await runGit(target, ['rev-parse', '-q', '--verify', 'MERGE_HEAD']);
  if (status.stdout !== '' || inProgress.ok) {
    const first = status.stdout.split('\n')[0]?.slice(3) ?? 'a merge in progress';
    return {
      kind: 'refused',
      reason: 'dirty',
      message: `${target} has uncommitted changes (${inProgress.ok ? 'a merge in progress' : first}): commit or set them aside, then land`,
    };
  }
  const state = await changesStateDirectory(target, before.stdout, candidate);
  if (state !== undefined) return state;
  const landed = await runGit(target, ['merge-base', '--is-ancestor', candidate, before.stdout]);
  if (landed.ok) return { kind: 'refused', reason: 'already-landed', message: `the candidate ${candidate} is already in ${branch.stdout}` };
  const fastForward = await runGit(target, ['merge-base', '--is-ancestor', before.stdout, candidate]);
  let commit = candidate;
  let method: LandMethod = 'fast-forward';
  if (request.squash || !fastForward.ok) {
    const merged = await runGit(target, ['merge-tree', '--write-tree', '--name-only', '--no-messages', before.stdout, candidate]);
    if (!merged.ok && merged.exitCode === 1) {
      const conflicted = merged.stdout
        .split('\n')
        .slice(1)
        .filter((line) => line !== '');
      return {
        kind: 'refused',
        reason: 'conflict',
        message: `the candidate conflicts with ${branch.stdout} in ${conflicted.join(', ') || 'its files'}: nothing was changed; merge it by hand, or make a new attempt from the branch`,
      };
    }
    if (!merged.ok) return gitFailed(target, 'merge-tree', merged.stderr);
    const tree = merged.stdout.split('\n')[0] ?? '';
    const headTree = await runGit(target, ['rev-parse', '--verify', `${before.stdout}^{tree}`]);
    if (headTree.ok && headTree.stdout === tree)
      return { kind: 'refused', reason: 'already-landed', message: `${branch.stdout} already holds the candidate's changes: landing it would change nothing` };
    const parents = request.squash ? ['-p', before.stdout] : ['-p', before.stdout, '-p', candidate];
    const made = await runGit(target, ['commit-tree', tree, ...parents, '-m', request.message]);
    if (!made.ok) return gitFailed(target, 'commit-tree (is your git identity, user.name and user.email, set?)', made.stderr);
    commit = made.stdout;
    method = request.squash ? 'squash' : 'merge';
  }
  // A fast-forward to a descendant of HEAD: git checks every file it writes before writing any.
  const moved = await runGit(target, ['merge', '--ff-only', '--no-stat', '--quiet', commit]);
  if (!moved.ok) return gitFailed(target, 'merge --ff-only', moved.stderr);
  return { kind: 'landed', branch: branch.stdout, before: before.stdout, commit, method };
}

function gitFailed(target: string, what: string, stderr: string): LandGitAnswer {
  return { kind: 'refused', reason: 'git-failed', message: `git ${what} in ${target} failed: ${stderr}; nothing was changed` };
}

/**
 * A refusal when the candidate changes anything at or under statecraft's state directory since
 * it left the branch (decision 0420): there statecraft makes and removes the agents' workspaces
 * and the checks' worktrees, and a link landed there leads that removal anywhere. A receipt
 * minted before such a candidate failed, or carried in a bundle, may still name one.
 */
async function changesStateDirectory(target: string, head: string, candidate: string): Promise<LandGitAnswer | undefined> {
  const base = await runGit(target, ['merge-base', head, candidate]);
  if (!base.ok) return gitFailed(target, 'merge-base', base.stderr);
  const changed = await runGit(target, ['diff', '--no-ext-diff', '--no-renames', '--name-only', '-z', base.stdout, candidate, '--', STATE_DIRECTORY]);
  if (!changed.ok) return gitFailed(target, 'diff --name-only', changed.stderr);
  const paths = changed.stdout.split('\0').filter((path) => path !== '');
  if (paths.length === 0) return undefined;
  return {
    kind: 'refused',
    reason: 'state-directory',
    message: `the candidate ${candidate} changes statecraft's state directory (${paths.slice(0, 3).join(', ')}${paths.length > 3 ? ', …' : ''}), where statecraft makes and removes worktrees: it is not landed; nothing was changed`,
  };
}
