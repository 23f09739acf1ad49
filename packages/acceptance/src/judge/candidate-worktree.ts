import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { runGit } from '@statecraft/run';
import { ownerFileOf } from './leftover-check-worktrees.js';

/** Where fresh worktrees of candidates are made: the target's state directory, kept out of git (R8.6). */
export const CHECKS_DIRECTORY = join('.statecraft', 'state', 'checks');

export type CandidateWorktree = { kind: 'made'; path: string } | { kind: 'failed'; message: string };

/**
 * A fresh detached worktree of the candidate commit (R13.3): not the agent's workspace, so nothing
 * the agent left outside the commit is judged. Git runs without hooks (runGit), so no post-checkout
 * hook of the repository runs before the checks do. Its owner (this supervisor) is written beside
 * it first, so a later judge can tell a worktree a killed supervisor left from a live one's.
 */
export async function makeCandidateWorktree(target: string, runId: string, attempt: number, commit: string): Promise<CandidateWorktree> {
  const path = join(target, CHECKS_DIRECTORY, `${runId}-${attempt}-${randomUUID().slice(0, 8)}`);
  await mkdir(join(target, CHECKS_DIRECTORY), { recursive: true });
  const owner = { pid: process.pid, host: hostname(), runId, attempt, since: new Date().toISOString() };
  // Not fsync'd: after a crash its owner is dead anyway, and a missing owner file reads as dead.
  await writeFile(ownerFileOf(path), `${JSON.stringify(owner)}\n`, { mode: 0o600 });
  const added = await runGit(target, ['worktree', 'add', '--detach', '--quiet', path, commit]);
  if (!added.ok) {
    await rm(ownerFileOf(path), { force: true });
    return { kind: 'failed', message: `git worktree add --detach ${path} ${commit}: ${added.stderr}` };
  }
  return { kind: 'made', path };
}

/**
 * After the suite (R13.3): HEAD must still be the candidate and the tree clean. Untracked files
 * count as dirty; files git ignores (build output) do not. Dirty paths are named.
 */
export async function readWorktreeAfterSuite(path: string): Promise<{ head: string; dirtyPaths: string[] } | { failed: string }> {
  // Both read at once: neither writes, and the suite has ended, so nothing moves between them.
  const [head, status] = await Promise.all([runGit(path, ['rev-parse', 'HEAD']), runGit(path, ['status', '--porcelain=v1', '-z', '--untracked-files=all'])]);
  if (!head.ok) return { failed: `git rev-parse HEAD in ${path}: ${head.stderr}` };
  if (!status.ok) return { failed: `git status in ${path}: ${status.stderr}` };
  const dirtyPaths: string[] = [];
  const entries = status.stdout.split('\0');
  for (let index = 0; index < entries.length; index += 1) {
    const entry = entries[index] ?? '';
    if (entry.length < 4) continue;
    dirtyPaths.push(entry.slice(3));
    // A rename or copy is followed by its source path.
    if (entry[0] === 'R' || entry[0] === 'C') index += 1;
  }
  return { head: head.stdout, dirtyPaths };
}

/** Removes the worktree (and anything the checks left in it) and its owner file; a failure is said, never fatal. */
export async function removeCandidateWorktree(target: string, path: string): Promise<'removed' | { notRemoved: string }> {
  const removed = await runGit(target, ['worktree', 'remove', '--force', '--force', path]);
  if (!removed.ok) return { notRemoved: `git worktree remove ${path}: ${removed.stderr}` };
  await rm(ownerFileOf(path), { force: true }).catch(() => undefined);
  return 'removed';
}
