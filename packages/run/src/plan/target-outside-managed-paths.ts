import { expandManagedPaths, resolvedThroughLinks } from '@statecraft/adapter';
import type { ResolvedTarget } from '../workspace/resolve-target.js';

/**
 * A target whose work tree or git directory lies in a path the adapter declares managed, named, or
 * undefined (R12). Every attempt of that adapter has had the path writable: its agent may have made
 * or changed the repository there — a filter in its configuration is a command statecraft's own git
 * then runs, as the operator, outside the sandbox, as soon as it checks the workspace out (found in
 * review, 2026-12-02: an agent made a repository under its managed path after the launch's check,
 * and the next run on it ran its filter before the launch refused the path). So the target is
 * refused at planning, before any git but the one that named it (`rev-parse`, which reads no index
 * and runs no filter), whether or not the boundary is on. `home` is the constructed HOME, as the
 * launch expands `~` with it.
 */
export function targetInsideManagedPath(target: ResolvedTarget, managedPaths: readonly string[], home: string | undefined): string | undefined {
  for (const { declared, path } of expandManagedPaths(managedPaths, home)) {
    const real = resolvedThroughLinks(path);
    const named = real === path ? path : `${path} (${real} with its links resolved)`;
    const inside = (place: string) => place === real || place.startsWith(real === '/' ? '/' : `${real}/`);
    const what = inside(target.path)
      ? target.path
      : inside(target.commonDirectory)
        ? `the git directory of ${target.path}, ${target.commonDirectory},`
        : undefined;
    if (what === undefined) continue;
    return (
      `${what} lies inside ${named}, which the adapter declares managed (${JSON.stringify(declared)}): its agents may write the repository's ` +
      `git configuration there, which statecraft's own git obeys outside the sandbox; move the repository out of it (and read its ` +
      `.git/config, which an agent could have written) to run statecraft on it; refused before git runs in it, nothing appended`
    );
  }
  return undefined;
}
