import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { findOtherViews, withHiddenPaths } from '@statecraft/environment';
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
export async function withAgentWorkspacesHidden(sandbox: CheckSandbox, target: string, gitDirectory?: string): Promise<CheckSandbox> {
  if (sandbox.established === undefined) return sandbox;
  const root = await realpath(target).catch(() => undefined);
  if (root === undefined) return sandbox;
  const own = dirname(workspaceLocation(root, 'any').path);
  const others = (await otherWorktrees(root, gitDirectory)).map((worktree) => join(worktree, STATE_DIRECTORY));
  // A mount reaches a directory under one path: another mount of the repository (a bind mount of a
  // parent, a volume mounted twice) shows the same workspaces under another, hidden as well, as
  // the product home's other views are (product-home-views.ts).
  const views = [own, ...others].flatMap((path) => viewsOf(path));
  const profile = sandbox.established.record.profile;
  const hidden: string[] = profile.hidden.map((entry) => entry.path);
  const needed = [...profile.writable, ...profile.readOnly].map((entry) => entry.path);
  const added: BoundaryPath[] = [];
  // Shorter paths first: a state directory inside another worktree's (its agents' workspaces) is hidden with it.
  for (const path of [own, ...[...others, ...views].sort((a, b) => a.length - b.length)]) {
    if (hidden.some((above) => isSameOrBelow(path, above)) || needed.some((other) => isSameOrBelow(other, path) || isSameOrBelow(path, other))) continue;
    const kind = await lstat(path).catch(() => undefined);
    if (kind?.isDirectory() !== true || (await realpath(path).catch(() => undefined)) !== path) continue;
    hidden.push(path);
    added.push({ path, role: 'agent-workspaces' });
  }
  const established = withHiddenPaths(sandbox.established, added);
  return { ...sandbox, established, boundary: established.record };
}

/** The other paths at which a directory is reached; none when the mount table cannot be read (the path itself is still hidden). */
function viewsOf(path: string): string[] {
  try {
    return findOtherViews(path).map((view) => view.path);
  } catch {
    return [];
  }
}

/**
 * The repository's worktrees other than the target, by their real paths: the main checkout and
 * each linked one, as the repository registers them in its common git directory, which no agent
 * writes inside the boundary. A worktree whose directory is gone is left out.
 */
async function otherWorktrees(root: string, commonDirectory: string | undefined): Promise<string[]> {
  const paths = commonDirectory === undefined ? await listedByGit(root) : await registeredIn(commonDirectory);
  const real = await Promise.all(paths.map((path) => realpath(path).catch(() => undefined)));
  return real.filter((path): path is string => path !== undefined && path !== root);
}

/**
 * The worktrees as `git worktree list` finds them, read from the files it reads rather than by a
 * git process: the main one is the common directory less its `/.git` (the directory itself when
 * bare), each linked one is what `worktrees/<id>/gitdir` names less its `/.git` (a relative path
 * taken from that directory); an id whose `gitdir` cannot be read is left out, as git leaves it.
 */
async function registeredIn(commonDirectory: string): Promise<string[]> {
  const withoutGit = (path: string): string => (path.endsWith('/.git') ? path.slice(0, -'/.git'.length) : path);
  const administrative = join(commonDirectory, 'worktrees');
  const ids = await readdir(administrative).catch(() => [] as string[]);
  const linked = await Promise.all(
    ids.map(async (id) => {
      const named = await readFile(join(administrative, id, 'gitdir'), 'utf8').catch(() => undefined);
      return named === undefined || named.trim() === '' ? undefined : resolve(administrative, id, withoutGit(named.trimEnd()));
    }),
  );
  return [withoutGit(commonDirectory), ...linked.filter((path): path is string => path !== undefined)];
}

/** The worktrees as `git worktree list` prints them, when the common git directory is not known. */
async function listedByGit(root: string): Promise<string[]> {
  const listed = await runGit(root, ['worktree', 'list', '--porcelain', '-z']);
  if (!listed.ok) return [];
  return listed.stdout
    .split('\0')
    .filter((entry) => entry.startsWith('worktree '))
    .map((entry) => entry.slice('worktree '.length));
}

function isSameOrBelow(path: string, parent: string): boolean {
  return path === parent || path.startsWith(parent.endsWith('/') ? parent : `${parent}/`);
}
