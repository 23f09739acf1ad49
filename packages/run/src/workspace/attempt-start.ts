import { copyFile, lstat, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AttemptStart, EarlierCommit } from '@statecraft/adapter';
import { removeStoppedGitIndexLock } from './stopped-git-index-lock.js';
import { workspaceGitFromOutside, type WorkspaceGit, type WorkspaceGitAnswer } from './workspace-git-from-outside.js';

/** A candidate an earlier attempt of the run recorded: its commit, and the first attempt whose candidate it was. */
export interface EarlierCandidate {
  commit: string;
  attempt: number;
}

/** What a commit already on the run's branch is to the run (R13.2): the base first, then the first attempt whose candidate it was. */
export function whatEarlierCommitIs(commit: string, baseCommit: string, earlier: readonly EarlierCandidate[]): EarlierCommit {
  if (commit === baseCommit) return 'base';
  const candidate = earlier.find((entry) => entry.commit === commit);
  return candidate === undefined ? 'other' : { candidateOf: candidate.attempt };
}

/** A new run's workspace, just checked out at the base on a new branch: its start needs no git. */
export function newRunStart(baseCommit: string, baseTree: string): AttemptStart {
  return { commit: baseCommit, tree: baseTree, uncommitted: false, is: 'base' };
}

export type AttemptStartReading = { kind: 'read'; start: AttemptStart } | { kind: 'unread'; message: string };

/**
 * A retry's workspace as the attempt finds it (R13.2), read before its adapter is spawned, so that
 * what the attempt changed can be told from what was there: an earlier attempt's candidate, or the
 * changes an attempt that did not complete left uncommitted. Read as the candidate is
 * (identify-candidate.ts): through the registered git directory, never the workspace's `.git` file,
 * with a constructed environment and no hooks. Uncommitted changes are written to a tree through a
 * scratch copy of the index, so neither the workspace's index nor its branch is touched. Under
 * `signal` (a bound, the operator's interrupt) a git still running is killed. Never rejects.
 */
export async function readAttemptStart(input: {
  workspace: string;
  gitDirectory: string;
  baseCommit: string;
  earlier: readonly EarlierCandidate[];
  signal?: AbortSignal;
}): Promise<AttemptStartReading> {
  // A git stopped before the attempt starts leaves an index lock nothing else can hold yet: removed.
  const git = workspaceGitFromOutside(
    input.workspace,
    input.gitDirectory,
    input.signal === undefined ? undefined : { signal: input.signal, stopped: removeStoppedGitIndexLock },
  );
  // Both only read (a status may refresh the index; rev-parse reads refs and objects): asked together.
  const [status, ids] = await Promise.all([
    git(['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all', '--ignore-submodules=dirty']),
    git(['rev-parse', 'HEAD', 'HEAD^{tree}']),
  ]);
  if (!status.ok) return { kind: 'unread', message: status.message };
  if (!ids.ok) return { kind: 'unread', message: ids.message };
  const [commit, headTree] = ids.stdout.trim().split('\n');
  if (commit === undefined || headTree === undefined) return { kind: 'unread', message: `git rev-parse HEAD in ${input.workspace} gave no commit` };
  const uncommitted = status.stdout.split('\0').some((entry) => entry !== '' && !entry.startsWith('# '));
  const tree = uncommitted ? await treeOfWorkTree(input.gitDirectory, git) : { ok: true as const, stdout: headTree };
  if (!tree.ok) return { kind: 'unread', message: tree.message };
  return { kind: 'read', start: { commit, tree: tree.stdout.trim(), uncommitted, is: whatEarlierCommitIs(commit, input.baseCommit, input.earlier) } };
}

/**
 * The tree the work tree holds, uncommitted changes included, as `git add -A` at the attempt's end
 * would commit it: added to a scratch copy of the workspace's index (its stat data spares git
 * hashing every unchanged file) and written as a tree, the workspace's own index left as it was.
 */
async function treeOfWorkTree(gitDirectory: string, git: WorkspaceGit): Promise<WorkspaceGitAnswer> {
  const scratch = await mkdtemp(join(tmpdir(), 'statecraft-start-'));
  try {
    const index = join(scratch, 'index');
    // Copied only when it is a regular file: a FIFO or a link planted there (outside the boundary) would hang or redirect the copy.
    const kept = await lstat(join(gitDirectory, 'index')).catch(() => undefined);
    if (kept?.isFile() === true) await copyFile(join(gitDirectory, 'index'), index);
    const scratchIndex = { GIT_INDEX_FILE: index };
    const added = await git(['add', '-A'], scratchIndex);
    return added.ok ? await git(['write-tree'], scratchIndex) : added;
  } catch (error) {
    return { ok: false, message: `cannot copy the workspace's index to ${scratch} (${(error as Error).message})` };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
