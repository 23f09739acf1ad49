import { lstatSync, mkdirSync, readdirSync, realpathSync, rmdirSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { inWorktreeTurn, runGit } from '@statecraft/records';
import { excludeStateDirectory } from './exclude-state.js';
import { attemptWorkspaceLocation, STATE_DIRECTORY, workspaceLocation } from '@statecraft/records';
import { registeredGitDirectory, stateDirectoryNotOwn, untrustedWorktreeGitOptions } from '@statecraft/records';
import type { EndOfAttemptGit } from './end-of-attempt-git.js';
import type { ResolvedTarget } from '@statecraft/records';

export interface WorkspaceRequest {
  target: ResolvedTarget;
  runId: string;
  baseCommit: string;
  /** A retry of an existing run reuses its workspace (R8.6); a new run must find the place empty. */
  mode: 'new-run' | 'retry';
  /**
   * Told the workspace's real path as soon as its directory exists — made empty, before git adds
   * the worktree into it — and `added`, settling true once git has added it and checked it out
   * (false: it failed): what needs only the directory (the boundary's sandbox, R12) is set up
   * while git works, and what writes there (its probe) waits for `added`.
   */
  onDirectory?: (path: string, added: Promise<boolean>) => void;
  /** This attempt's number, in a run that started several together: each has its own worktree and branch. */
  besideOthers?: number;
}

export interface PreparedWorkspace {
  path: string;
  branch: string;
  /** `created`: a new worktree; `reused`: the run's own worktree, found in place; `restored`: re-added from the run's branch. */
  how: 'created' | 'reused' | 'restored';
}

export type WorkspacePreparation =
  | { kind: 'prepared'; workspace: PreparedWorkspace }
  | {
      kind: 'refused';
      reason: 'foreign-directory' | 'branch-exists' | 'git-failed';
      path: string;
      message: string;
    };

/**
 * Prepares the attempt's workspace (R8.6): a git worktree of the target at the recorded base
 * commit, on the run's own branch, under `.statecraft/state/` (kept out of git). The operator's
 * checkout is not modified: worktree bookkeeping lives in the git directory, and the exclude
 * pattern in `info/exclude`. Anything at the workspace path that is not this run's worktree is
 * refused by name, never removed.
 */
export async function prepareWorkspace(request: WorkspaceRequest): Promise<WorkspacePreparation> {
  const { path, branch } =
    request.besideOthers === undefined
      ? workspaceLocation(request.target.path, request.runId)
      : attemptWorkspaceLocation(request.target.path, request.runId, request.besideOthers);
  // The workspace is made under the state directory and later removed from it: never through a link.
  const notOwn = stateDirectoryNotOwn(request.target.path);
  if (notOwn !== undefined) return { kind: 'refused', reason: 'foreign-directory', path, message: `${notOwn}; nothing was made` };
  // Synchronous up to `git worktree add` for a new run: launch checks the chain — CPU work that
  // holds the event loop — while git makes the worktree, so git has to be started first.
  excludeStateDirectory(request.target.commonDirectory);
  const found = lstatSync(path, { throwIfNoEntry: false }) ?? 'absent';
  // An empty directory is what a supervisor killed between making it and `git worktree add` leaves;
  // git adds into it as into nothing, and it holds nothing to lose.
  const existing = found !== 'absent' && found.isDirectory() && readdirSync(path).length === 0 ? 'empty' : found;
  if (existing !== 'absent' && existing !== 'empty') {
    if (request.mode === 'retry' && existing.isDirectory() && (await isThisRunsWorktree(request.target, path, branch))) {
      request.onDirectory?.(path, Promise.resolve(true));
      return { kind: 'prepared', workspace: { path, branch, how: 'reused' } };
    }
    return {
      kind: 'refused',
      reason: 'foreign-directory',
      path,
      message: `${path}: something that is not run ${request.runId}'s worktree is already there; refused, nothing was removed`,
    };
  }
  // A new run's branch is new (its id is fresh); should it exist, `worktree add -b` refuses and says so.
  const branchExists = request.mode === 'retry' && (await runGit(request.target.path, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`])).ok;
  mkdirSync(join(request.target.path, STATE_DIRECTORY, 'workspaces'), { recursive: true });
  // A retry whose worktree was deleted is restored from the run's branch, keeping its commits.
  if (branchExists) await inWorktreeTurn(() => runGit(request.target.path, ['worktree', 'prune']));
  // `git worktree add` checks the branch out itself, as its own child `git reset --hard
  // --no-recurse-submodules`: submodules are not entered, and no hook runs (runGit's
  // core.hooksPath reaches the child through git's own environment). The directory exists before
  // git starts (made here, empty), and the caller is told it at once.
  const args = branchExists ? ['worktree', 'add', path, branch] : ['worktree', 'add', '--no-track', '-b', branch, path, request.baseCommit];
  if (existing === 'absent') mkdirSync(path, { mode: 0o755 });
  const workspace: PreparedWorkspace = { path: realpathSync(path), branch, how: branchExists ? 'restored' : 'created' };
  // Git first (runGit spawns before it returns), then what is set up beside it.
  const adding = inWorktreeTurn(() => runGit(request.target.path, args));
  let settleAdded: (added: boolean) => void = () => undefined;
  request.onDirectory?.(
    workspace.path,
    new Promise<boolean>((resolve) => {
      settleAdded = resolve;
    }),
  );
  const added = await adding;
  settleAdded(added.ok);
  if (!added.ok) {
    // `-b` makes the branch before the worktree: a new run's branch is its own, and goes with it.
    const left = branchExists ? '' : await deleteNewBranch(request.target, branch);
    // The directory made for it goes too, when git left it empty (rmdir removes nothing else); a
    // checkout that failed was already taken back by git, directory and all.
    try {
      rmdirSync(path);
    } catch {
      // Not empty (git left something) or already gone: left as it is, never removed whole.
    }
    return { kind: 'refused', reason: 'git-failed', path, message: `${path}: git worktree add failed (it checks ${branch} out too): ${added.stderr}${left}` };
  }
  return { kind: 'prepared', workspace };
}

/** Deletes a new run's branch a failed `worktree add -b` left; says what was left when it cannot. */
async function deleteNewBranch(target: ResolvedTarget, branch: string): Promise<string> {
  const exists = await runGit(target.path, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]);
  if (!exists.ok) return '';
  const deleted = await inWorktreeTurn(() => runGit(target.path, ['branch', '--delete', '--force', branch]));
  return deleted.ok ? '' : `; its branch ${branch} could not be deleted (${deleted.stderr})`;
}

/**
 * Takes back a workspace prepared for an attempt that was then refused before its intent: a new
 * worktree and its branch are removed, a restored worktree is removed (its branch stays, as it
 * was), a reused one is left as found. Answers `withdrawn`, or what git said when it could not be.
 */
export async function withdrawWorkspace(target: ResolvedTarget, workspace: PreparedWorkspace): Promise<'withdrawn' | { failed: string }> {
  if (workspace.how === 'reused') return 'withdrawn';
  const removed = await inWorktreeTurn(() => runGit(target.path, ['worktree', 'remove', '--force', workspace.path]));
  if (!removed.ok) return { failed: `git worktree remove ${workspace.path}: ${removed.stderr}` };
  if (workspace.how === 'restored') return 'withdrawn';
  const deleted = await inWorktreeTurn(() => runGit(target.path, ['branch', '--delete', '--force', workspace.branch]));
  return deleted.ok ? 'withdrawn' : { failed: `git branch --delete ${workspace.branch}: ${deleted.stderr}` };
}

/**
 * The directory is a worktree of this very repository with the run's branch checked out, asked
 * from the repository's side: the worktree the repository registered at this path, read through
 * that registration (registered-git-directory.ts), never through the worktree's own `.git` file,
 * which the agent of the earlier attempt could rewrite (R12) to aim this git, run as the operator
 * outside the sandbox, at a git directory and configuration of its choosing — as the end of an
 * attempt already reads it.
 */
async function isThisRunsWorktree(target: ResolvedTarget, path: string, branch: string): Promise<boolean> {
  const gitDirectory = await registeredGitDirectory(target.commonDirectory, path);
  if (gitDirectory === undefined) return false;
  const options = untrustedWorktreeGitOptions(gitDirectory, path);
  const [common, head] = await Promise.all([
    runGit(path, [...options, 'rev-parse', '--path-format=absolute', '--git-common-dir']),
    runGit(path, [...options, 'symbolic-ref', '--quiet', 'HEAD']),
  ]);
  if (!common.ok || !head.ok) return false;
  const realCommon = await realpath(common.stdout).catch(() => undefined);
  return realCommon === target.commonDirectory && head.stdout === `refs/heads/${branch}`;
}

/** The workspace's HEAD after the attempt, and whether it has uncommitted changes. */
export interface WorkspaceHeadReading {
  head: string;
  dirty: boolean | 'not-recorded';
}

/**
 * The workspace's HEAD and whether it has uncommitted changes, read after the attempt, in one git
 * call: through its registered git directory, as untrusted a directory as identify-candidate.ts reads.
 */
export async function readWorkspaceHead(path: string, gitDirectory: string | undefined, end?: EndOfAttemptGit): Promise<WorkspaceHeadReading> {
  if (gitDirectory === undefined) return { head: 'not-recorded', dirty: 'not-recorded' };
  const options = untrustedWorktreeGitOptions(gitDirectory, path);
  // Under the end of the attempt's bound (end-of-attempt-bound.ts): a status stopped reads nothing.
  const status = await runGit(path, [...options, 'status', '--porcelain=v2', '--branch', '--untracked-files=all', '--ignore-submodules=dirty'], end?.signal);
  if (!status.ok) {
    if (end?.signal.aborted === true) await end.stopped(gitDirectory);
    return { head: 'not-recorded', dirty: 'not-recorded' };
  }
  const lines = status.stdout.split('\n').filter((line) => line !== '');
  const oid = lines.find((line) => line.startsWith('# branch.oid '))?.slice('# branch.oid '.length);
  return { head: oid !== undefined && /^[0-9a-f]{40,64}$/.test(oid) ? oid : 'not-recorded', dirty: lines.some((line) => !line.startsWith('#')) };
}
