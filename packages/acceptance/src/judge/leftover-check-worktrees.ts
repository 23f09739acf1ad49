import { lstat, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isLive, LockHolderSchema } from '@statecraft/records';
import { ownerFileOf, removeCandidateWorktree } from './candidate-worktree.js';
import { removeLeftoverCheckTemporaryDirectories } from './check-temporary-directory.js';

const OWNER_SUFFIX = '.owner.json';
/** A check worktree's name as makeCandidateWorktree makes it: `<run>-<attempt>-<8 hex>`. */
const WORKTREE_NAME = /^.+-\d+-[0-9a-f]{8}$/;

/**
 * Removes the check worktrees a supervisor killed during its suite left behind (`kill -9` runs no
 * cleanup): every directory of the checks directory named as a judge names its worktrees (and its
 * owner file) whose owner is dead on this host, or which names no readable owner (the owner file
 * is written before the worktree, so a live judge's always has one). A live owner's is left alone: another product home may be judging this target. Each is
 * removed as a judge removes its own (removeCandidateWorktree: git first, else the directory and
 * `git worktree prune`), its checks' TMPDIR first (check-temporary-directory.ts), while the owner
 * file that leads to it is still there. Answers the worktree paths removed; a failure to remove
 * one is left for the next judge, never fatal.
 */
export async function removeLeftoverCheckWorktrees(target: string, checksDirectory: string): Promise<string[]> {
  const directory = join(target, checksDirectory);
  const names = await readdir(directory).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    // Only what a judge makes there: a name of another shape — a file a commit put there, say — is not a judge's to remove.
    if (!WORKTREE_NAME.test(name.endsWith(OWNER_SUFFIX) ? name.slice(0, -OWNER_SUFFIX.length) : name)) continue;
    if (name.endsWith(OWNER_SUFFIX)) {
      // An owner file whose worktree is gone: its own leftover, once its owner is dead.
      const worktree = name.slice(0, -OWNER_SUFFIX.length);
      if (!names.includes(worktree) && !(await ownerLives(join(directory, worktree)))) {
        await removeLeftoverCheckTemporaryDirectories(worktree);
        await rm(join(directory, name), { force: true });
      }
      continue;
    }
    const path = join(directory, name);
    // A judge's worktree is a directory: a link or a file of that name is left alone, never followed.
    if ((await lstat(path).catch(() => undefined))?.isDirectory() !== true) continue;
    if (await ownerLives(path)) continue;
    await removeLeftoverCheckTemporaryDirectories(path);
    // Not a worktree git knows (its registration already pruned): the directory is still removed.
    if ((await removeCandidateWorktree(target, path)) === 'removed') removed.push(path);
  }
  return removed;
}

async function ownerLives(worktree: string): Promise<boolean> {
  let text: string;
  try {
    text = await readFile(ownerFileOf(worktree), 'utf8');
  } catch {
    return false;
  }
  try {
    const owner = LockHolderSchema.safeParse(JSON.parse(text));
    return owner.success && isLive(owner.data);
  } catch {
    return false;
  }
}
