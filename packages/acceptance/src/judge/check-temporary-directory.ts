import { mkdtempSync } from 'node:fs';
import { chmod, lstat, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/** What mkdtemp adds to a prefix: six characters. */
const MKDTEMP_SUFFIX_LENGTH = 6;

/**
 * The checks' private TMPDIR (R13.3), named after the candidate's worktree: a judge killed outright
 * (`kill -9` runs no cleanup) leaves both behind, and the judge that finds the worktree's owner dead
 * finds the TMPDIR by that name (leftover-check-worktrees.ts). The worktree's owner file is written
 * before this is made, and removed after it, so no TMPDIR is ever left without one.
 */
function prefixOf(worktree: string): string {
  return `statecraft-checks-${basename(worktree)}-`;
}

/** Made synchronously: the boundary's probe is spawned right after it, beside git's checkout. */
export function makeCheckTemporaryDirectory(worktree: string): string {
  return mkdtempSync(join(tmpdir(), prefixOf(worktree)));
}

/**
 * Emptied between checks, so each check gets a TMPDIR as fresh as the first's (R13.3): nothing an
 * earlier check left there is read by a later one. The directory itself stays (the next check's
 * sandbox may already bind it); its mode is made again what mkdtemp gave, since a check may have
 * changed it. Answers whether it is empty.
 */
export async function emptyCheckTemporaryDirectory(path: string): Promise<boolean> {
  try {
    await chmod(path, 0o700);
    for (const name of await readdir(path)) await rm(join(path, name), { recursive: true, force: true });
    return (await readdir(path)).length === 0;
  } catch {
    return false;
  }
}

/** Removed after the suite; a failure is left for the next judge, never fatal. */
export async function removeCheckTemporaryDirectory(path: string): Promise<void> {
  await rm(path, { recursive: true, force: true }).catch(() => undefined);
}

/**
 * The TMPDIRs a dead judge made for `worktree`, removed: the directories of the system's temporary
 * directory named for it (a link or file of that name is left alone). Called only for a worktree
 * whose owner is dead: a live judge's is never touched. A TMPDIR made under another TMPDIR than
 * this judge's is not found. Answers the paths removed.
 */
export async function removeLeftoverCheckTemporaryDirectories(worktree: string): Promise<string[]> {
  const prefix = prefixOf(worktree);
  const names = await readdir(tmpdir()).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix) || name.length !== prefix.length + MKDTEMP_SUFFIX_LENGTH) continue;
    const path = join(tmpdir(), name);
    const entry = await lstat(path).catch(() => undefined);
    if (entry?.isDirectory() !== true) continue;
    await removeCheckTemporaryDirectory(path);
    removed.push(path);
  }
  return removed;
}
