import { lstatSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** What git itself looks for to take a directory for a git directory (setup.c, `is_git_directory`). */
const GIT_DIRECTORY_ENTRIES = ['HEAD', 'objects', 'refs'] as const;

/** Whether a managed path is, or lies inside, a git directory, read from the file system alone (no git is run). */
export type EnclosingGitDirectory =
  | { kind: 'none' }
  | { kind: 'git-directory'; relation: 'is' | 'is inside'; at: string }
  /** A directory on the way could not be looked into: whether it is a git directory is not known. */
  | { kind: 'unreadable'; directory: string; code: string };

/**
 * Whether a managed path (`real`: its links resolved) is, or lies inside, a git directory: bound
 * writable, it would let the agent write that repository's configuration, its refs or its
 * worktrees' records, which git obeys wherever it is next run there — statecraft's own git
 * included, as the operator and outside the sandbox (another repository's `.git`, declared
 * managed, would run the agent's filter at that repository's next `statecraft run`).
 *
 * Only a git directory counts, not a work tree: what a work tree holds is files, and git obeys no
 * configuration there (a repository the agent makes inside a managed path is refused as a target
 * at planning instead: run's plan/target-outside-managed-paths.ts). What lies below the path is not
 * read: a provider's configuration holds git clones of its own (its plugins), and a walk below
 * every managed path on every launch cost a bounded but large read on the launch's critical path.
 *
 * The path and its ancestors are looked at up to `root`, the place the path may lie in (the
 * constructed HOME, or /tmp): what lies above it is not the provider's, and /tmp itself (`root`
 * with `lookAtRoot` false) is every user's to fill with a HEAD, objects and refs that would
 * otherwise refuse every path in it. `real` lies inside `root`.
 */
export function enclosingGitDirectory(real: string, root: string, lookAtRoot: boolean): EnclosingGitDirectory {
  for (let directory = real; ; directory = dirname(directory)) {
    if (directory === root && !lookAtRoot) return { kind: 'none' };
    const reading = readsAsGitDirectory(directory);
    if (reading === true) return { kind: 'git-directory', relation: directory === real ? 'is' : 'is inside', at: directory };
    if (reading !== false) return reading;
    if (directory === root || dirname(directory) === directory) return { kind: 'none' };
  }
}

/**
 * Whether git would take the directory for a git directory: HEAD, objects and refs all there. A
 * path that is missing, or that is a file (a provider's `~/.<name>.json`: ENOTDIR below it), holds none of them.
 */
function readsAsGitDirectory(directory: string): boolean | Extract<EnclosingGitDirectory, { kind: 'unreadable' }> {
  for (const name of GIT_DIRECTORY_ENTRIES) {
    try {
      if (lstatSync(join(directory, name), { throwIfNoEntry: false }) === undefined) return false;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
      if (code === 'ENOTDIR') return false;
      return { kind: 'unreadable', directory, code };
    }
  }
  return true;
}
