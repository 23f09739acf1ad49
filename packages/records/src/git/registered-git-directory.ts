import { readdir, readFile, realpath } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';

/**
 * The git directory the repository registered for a worktree (`<common>/worktrees/<name>`), found
 * from the repository's side — each registration's `gitdir` file names its worktree's `.git` —
 * never from the `.git` file inside the worktree, which whatever ran there could rewrite (R12).
 * `undefined` when no registration names the worktree.
 */
export async function registeredGitDirectory(commonDirectory: string, worktree: string): Promise<string | undefined> {
  const registrations = join(commonDirectory, 'worktrees');
  const wanted = new Set([join(resolve(worktree), '.git'), join(await realpath(worktree).catch(() => resolve(worktree)), '.git')]);
  const namesThisWorktree = (name: string): Promise<boolean> =>
    readFile(join(registrations, name, 'gitdir'), 'utf8').then(
      (pointer) => wanted.has(resolve(join(registrations, name), pointer.trim())),
      () => false,
    );
  // Git names a registration after the worktree's directory (a run's id): asked first, so a
  // repository with many runs' worktrees is not read whole on every attempt. The same check.
  const likely = basename(resolve(worktree));
  if (await namesThisWorktree(likely)) return join(registrations, likely);
  for (const name of await readdir(registrations).catch(() => [] as string[])) {
    if (name !== likely && (await namesThisWorktree(name))) return join(registrations, name);
  }
  return undefined;
}

/**
 * Git's global options for reading or committing a worktree an untrusted process could write,
 * from outside the boundary (R12): the registered git directory and the work tree named, so the
 * worktree's own `.git` file is not followed; `core.fsmonitor` off, since it names a command git
 * would run. Status is asked with `--ignore-submodules=dirty` besides (its caller's part), so a
 * repository planted in a gitlink is compared by its HEAD and never entered.
 */
export function untrustedWorktreeGitOptions(gitDirectory: string, worktree: string): string[] {
  return [`--git-dir=${gitDirectory}`, `--work-tree=${worktree}`, '-c', 'core.fsmonitor=false'];
}
