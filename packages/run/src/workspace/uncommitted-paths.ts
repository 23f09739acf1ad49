import { runGit } from '@statecraft/records';

/** How many of the paths are kept in the answer; the count is of them all. */
const NAMED_PATHS = 100;

/** The checkout's uncommitted paths: how many, and the first of them, as `git status` names them. */
export interface UncommittedPaths {
  count: number;
  paths: string[];
}

/**
 * What in the target's checkout is not committed — staged, unstaged, and untracked files that are
 * not ignored (an untracked directory named once, as `git status` does) — read with one `git
 * status`, which takes no optional lock: an attempt starts from a commit, so none of it is part of
 * the attempt, and the operator is told. `undefined` when git could not say.
 */
export async function readUncommittedPaths(target: string): Promise<UncommittedPaths | undefined> {
  const answer = await runGit(target, ['--no-optional-locks', 'status', '--porcelain', '-z', '--ignore-submodules=dirty']);
  if (!answer.ok) return undefined;
  const entries = answer.stdout.split('\0');
  const paths: string[] = [];
  let count = 0;
  for (let index = 0; index < entries.length; index += 1) {
    const entry = entries[index] ?? '';
    if (entry.length < 4) continue;
    count += 1;
    if (paths.length < NAMED_PATHS) paths.push(entry.slice(3));
    // A rename or copy is followed by the path it came from: the same entry.
    if (entry[0] === 'R' || entry[0] === 'C') index += 1;
  }
  return { count, paths };
}
