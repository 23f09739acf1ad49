import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { inWorktreeTurn, runGit } from '@statecraft/records';
import type { PrunedAttempt } from '@statecraft/records';

/**
 * Removes one of a concluded run's worktrees and its branch from the target repository: the run's
 * own, or that of an attempt started beside others (`<run>-<n>`). The places are derived from the
 * run id and attempt numbers (runWorkspaceLocations; never from a path a record holds). The worktree's directory is removed without
 * running git in it — its git configuration is the agent's to have written — and its registration
 * with `git worktree prune`, which only forgets worktrees whose directory is gone. The branch goes
 * only when `keepBranch` is false, and only if it still points where it was read.
 */
export async function removeRunWorkspace(
  target: string,
  runId: string,
  { path, branch }: { path: string; branch: string },
  keepBranch: boolean,
): Promise<PrunedAttempt | { failed: string }> {
  const ref = `refs/heads/${branch}`;
  let workspace = 'none';
  if (existsSync(path)) {
    await rm(path, { recursive: true, force: true });
    workspace = path;
  }
  const pruned = await inWorktreeTurn(() => runGit(target, ['worktree', 'prune']));
  if (!pruned.ok) return { failed: `git worktree prune in ${target}: ${pruned.stderr}` };
  const tip = await runGit(target, ['rev-parse', '-q', '--verify', `${ref}^{commit}`]);
  if (keepBranch || !tip.ok) return { runId, workspace, branch: 'none', branchCommit: 'none' };
  const deleted = await runGit(target, ['update-ref', '-d', ref, tip.stdout]);
  if (!deleted.ok) return { failed: `git update-ref -d ${ref} in ${target}: ${deleted.stderr}` };
  return { runId, workspace, branch: ref, branchCommit: tip.stdout };
}
