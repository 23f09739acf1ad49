import { lstat, realpath } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { withHiddenPaths } from '@statecraft/environment';
import type { BoundaryPath } from '@statecraft/adapter';
import { runGit, STATE_DIRECTORY, workspaceLocation } from '@statecraft/records';
import type { CheckSandbox } from './check-sandbox.js';

/**
 * The checks' sandbox with the agents' workspaces of every worktree of the repository hidden
 * (R13.3, R12): they hold what agents left outside their candidates — ignored files above all —
 * which a check, or a link a check made, would otherwise read as if the candidate held it. The
 * judged target's own `.statecraft/state/workspaces` (its `checks` directory beside them holds the
 * candidate's worktree), and the whole `.statecraft/state` of each other worktree — the main
 * checkout when a linked worktree is judged, and the reverse.
 *
 * Hidden only when it is a directory reached through no symbolic link (a mount follows links, as
 * authority-read-only.ts says), and neither lies under a path the profile already hides nor holds
 * or lies in one the checks are given (a tmpfs over it would take it away; the candidate's own
 * worktree, registered too, is the checks' to write). Under `--boundary none`
 * nothing is applied, as the record says.
 */
export async function withAgentWorkspacesHidden(sandbox: CheckSandbox, target: string): Promise<CheckSandbox> {
  if (sandbox.established === undefined) return sandbox;
  const root = await realpath(target).catch(() => undefined);
  if (root === undefined) return sandbox;
  const own = dirname(workspaceLocation(root, 'any').path);
  const others = (await otherWorktrees(root)).map((worktree) => join(worktree, STATE_DIRECTORY));
  const profile = sandbox.established.record.profile;
  const hidden: string[] = profile.hidden.map((entry) => entry.path);
  const needed = [...profile.writable, ...profile.readOnly].map((entry) => entry.path);
  const added: BoundaryPath[] = [];
  // Shorter paths first: a state directory inside another worktree's (its agents' workspaces) is hidden with it.
  for (const path of [own, ...others.sort((a, b) => a.length - b.length)]) {
    if (hidden.some((above) => isSameOrBelow(path, above)) || needed.some((other) => isSameOrBelow(other, path) || isSameOrBelow(path, other))) continue;
    const kind = await lstat(path).catch(() => undefined);
    if (kind?.isDirectory() !== true || (await realpath(path).catch(() => undefined)) !== path) continue;
    hidden.push(path);
    added.push({ path, role: 'agent-workspaces' });
  }
  const established = withHiddenPaths(sandbox.established, added);
  return { ...sandbox, established, boundary: established.record };
}

/**
 * The repository's worktrees other than the target, by their real paths: the main checkout and
 * each linked one, as the repository registers them (`git worktree list`, read from the common git
 * directory, which no agent writes inside the boundary). A worktree whose directory is gone is left out.
 */
async function otherWorktrees(root: string): Promise<string[]> {
  const listed = await runGit(root, ['worktree', 'list', '--porcelain', '-z']);
  if (!listed.ok) return [];
  const paths = listed.stdout
    .split('\0')
    .filter((entry) => entry.startsWith('worktree '))
    .map((entry) => entry.slice('worktree '.length));
  const real = await Promise.all(paths.map((path) => realpath(path).catch(() => undefined)));
  return real.filter((path): path is string => path !== undefined && path !== root);
}

function isSameOrBelow(path: string, parent: string): boolean {
  return path === parent || path.startsWith(parent.endsWith('/') ? parent : `${parent}/`);
}
