import { lstatSync } from 'node:fs';
import { expandManagedPaths, resolvedThroughLinks } from '@statecraft/environment';
import { readRememberedWritablePaths, type RememberedWritablePath } from '@statecraft/records';
import { productHomeLayout } from '@statecraft/records';
import { STATE_DIRECTORY } from '@statecraft/records';
import type { ResolvedTarget } from '@statecraft/records';

/**
 * A target whose work tree or git directory lies in a path the adapter declares managed, named, or
 * undefined (R12). Every attempt of that adapter has had the path writable: its agent may have made
 * or changed the repository there — a filter in its configuration is a command statecraft's own git
 * then runs, as the operator, outside the sandbox, as soon as it checks the workspace out (an agent
 * can make a repository under its managed path after the launch's check, and the next run on it
 * would run its filter before the launch refused the path). So the target is
 * refused at planning, before any git but the one that named it (`rev-parse`, which reads no index
 * and runs no filter), whether or not the boundary is on. `home` is the constructed HOME, as the
 * launch expands `~` with it.
 */
export function targetInsideManagedPath(target: ResolvedTarget, managedPaths: readonly string[], home: string | undefined): string | undefined {
  for (const { declared, path } of expandManagedPaths(managedPaths, home)) {
    const real = resolvedThroughLinks(path);
    const named = real === path ? path : `${path} (${real} with its links resolved)`;
    const what = targetPartInside(target, real);
    if (what === undefined) continue;
    return `${what} lies inside ${named}, which the adapter declares managed (${JSON.stringify(declared)}): ${MOVE_IT_OUT}`;
  }
  return undefined;
}

/**
 * A target whose work tree or git directory lies in a path an earlier attempt's boundary bound
 * writable for its adapter, whichever adapter this run uses (writable-paths-remembered.ts), named;
 * or undefined. The path is as it was bound, its links resolved then.
 */
function targetInsideRememberedPath(target: ResolvedTarget, remembered: readonly RememberedWritablePath[], directory: string): string | undefined {
  for (const { path, adapter, since } of remembered) {
    // As bound, and where its links lead now: a directory moved and linked back is the same directory.
    // Only through links the operator (or root) made: in /tmp any user can put one where a
    // remembered path was, and every run under where it points would be refused.
    const places = linksAlongAreOwn(path) ? [path, resolvedThroughLinks(path)] : [path];
    for (const place of new Set(places)) {
      const what = targetPartInside(target, place);
      if (what === undefined) continue;
      const named = place === path ? path : `${path} (${place} with its links resolved now)`;
      return `${what} lies inside ${named}, which a launch of the adapter ${adapter} bound writable inside the evidence boundary on ${since} (remembered in ${directory}): ${MOVE_IT_OUT}`;
    }
  }
  return undefined;
}

/**
 * A target whose work tree or git directory lies in statecraft's state directory of any repository
 * (`.statecraft/state/`: agents' workspaces, `accept`'s check worktrees), named; or undefined. Each
 * was writable to an agent or a check and can outlive its use (a workspace is kept; a check can make
 * its worktree's removal fail): a repository made there, or a worktree's `.git` file pointed at a git
 * directory made there, carries configuration statecraft's own git would obey outside the sandbox.
 * An attempt's work is continued with `--retry`, on the repository itself.
 * Read on the resolved paths: a state directory reached through a link is not recognised.
 */
function targetInsideStateDirectory(target: ResolvedTarget): string | undefined {
  const marker = `/${STATE_DIRECTORY}/`;
  const where = [target.path, target.commonDirectory].find((path) => `${path}/`.includes(marker));
  if (where === undefined) return undefined;
  const state = where.slice(0, where.indexOf(marker) + marker.length - 1);
  const what = where === target.path ? target.path : `the git directory of ${target.path}, ${target.commonDirectory},`;
  return (
    `${what} lies inside ${state}, where statecraft keeps agents' workspaces and the checks' worktrees: an agent or a check could write any ` +
    "git configuration there, which statecraft's own git obeys outside the sandbox; run statecraft on the repository they belong to " +
    "(--retry <run> continues an attempt's work); refused before git runs in it, nothing appended"
  );
}

/**
 * Whether every symbolic link on the way to `path` (itself included) belongs to this user or to
 * root. Each prefix is looked at itself, the links before it followed, as a lookup follows them.
 */
function linksAlongAreOwn(path: string): boolean {
  const own = [0, process.getuid?.() ?? 0];
  let place = '';
  for (const part of path.split('/').filter((name) => name !== '')) {
    place = `${place}/${part}`;
    const info = lstatSync(place, { throwIfNoEntry: false });
    if (info === undefined) return true;
    if (info.isSymbolicLink() && !own.includes(info.uid)) return false;
  }
  return true;
}

const MOVE_IT_OUT =
  "its agents may write the repository's git configuration there, which statecraft's own git obeys outside the sandbox; move the " +
  'repository out of it (and read its .git/config, which an agent could have written) to run statecraft on it; refused before git ' +
  'runs in it, nothing appended';

/** The target's work tree, or its git directory, when either is `place` or lies inside it. */
function targetPartInside(target: ResolvedTarget, place: string): string | undefined {
  const inside = (path: string) => path === place || path.startsWith(place === '/' ? '/' : `${place}/`);
  if (inside(target.path)) return target.path;
  if (inside(target.commonDirectory)) return `the git directory of ${target.path}, ${target.commonDirectory},`;
  return undefined;
}

/**
 * Why every verb that runs git in a target refuses it whatever adapter is used, or undefined (R12):
 * it lies in statecraft's state directory, or in a path an earlier attempt's boundary bound writable
 * — or that memory cannot be read. One reading for `run`'s planning (after its adapter's own managed
 * paths, targetInsideManagedPath), `env plan` and `accept`, so none takes a target another refuses.
 */
export async function targetInWritablePlace(
  target: ResolvedTarget,
  productHome: string,
): Promise<{ message: string; detail: Record<string, unknown> } | undefined> {
  const inState = targetInsideStateDirectory(target);
  if (inState !== undefined) return { message: inState, detail: {} };
  const writablePaths = productHomeLayout(productHome).writablePaths;
  const remembered = await readRememberedWritablePaths(writablePaths);
  if (remembered.kind === 'unreadable') {
    const message = `${remembered.message}: statecraft cannot tell whether the target lies in a path an earlier attempt had writable; refused before git runs in it, nothing appended`;
    return { message, detail: { file: remembered.file } };
  }
  const rememberedOver = targetInsideRememberedPath(target, remembered.paths, writablePaths);
  return rememberedOver === undefined ? undefined : { message: rememberedOver, detail: { rememberedPaths: remembered.paths } };
}
