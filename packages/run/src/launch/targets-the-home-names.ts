import { closeSync, fstatSync, lstatSync, readdirSync, readSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { openRegularFileSync } from '@statecraft/adapter';
import type { ProtectedLocation } from '@statecraft/environment';
import { chainPaths, targetDirectoryIn, targetsDirectoryIn } from '@statecraft/records';
import { parseTargetName, TARGET_NAME_BYTES } from '@statecraft/records';

/** A `.git` file is one line naming the git directory (`gitdir: <path>`), as is a `commondir` file. */
const POINTER_BYTES = 4 * 1024;

/**
 * Every repository the product home keeps records for, and its git directories: statecraft's own
 * git runs in each of them, as the operator and outside every sandbox, on its next `run` — its
 * `worktree add`, `status` and `add -A` obey what that repository's configuration says. A managed
 * path over another target's `.git` would let the agent write a filter there, which the next run on
 * that repository would run as the operator. Named whether or not the repository is still there: a path the home names is one the operator runs statecraft on, and an agent must not be
 * the one to make a repository there either. Each target's `target.json` names its path (written
 * before its chain's first intent); one that cannot be read names nothing.
 */
export function targetsTheHomeNames(productHome: string): ProtectedLocation[] {
  let keys: string[];
  try {
    keys = readdirSync(targetsDirectoryIn(productHome));
  } catch {
    // No targets yet (a fresh home), or none readable: doctor reports an unreadable home.
    return [];
  }
  return keys.flatMap((key) => {
    const path = namedTargetPath(chainPaths(targetDirectoryIn(productHome, key)).target);
    if (path === undefined) return [];
    const what = `a repository the product home keeps records for (target ${key}), where statecraft's own git runs`;
    return [
      { path, what },
      ...gitDirectoriesOf(path).map((directory) => ({
        path: directory,
        what: `the git directory of ${path}, a target of the product home, whose configuration statecraft's own git obeys`,
      })),
    ];
  });
}

/** The absolute path a `target.json` names, or undefined when it names none that can be read. */
function namedTargetPath(file: string): string | undefined {
  const text = readSmallFile(file, TARGET_NAME_BYTES);
  const named = text === undefined ? undefined : parseTargetName(text);
  return named?.kind === 'read' && isAbsolute(named.name.path) ? named.name.path : undefined;
}

/**
 * A checkout's git directories as git finds them, without running git: `.git` itself when it is a
 * directory; else the directory its `gitdir:` line names, and the common directory that one's
 * `commondir` names (a linked worktree's or a submodule's). A `.git` inside the path is protected
 * with the path already; one elsewhere is not.
 */
function gitDirectoriesOf(checkout: string): string[] {
  const dotGit = join(checkout, '.git');
  const info = lstatSync(dotGit, { throwIfNoEntry: false });
  if (info === undefined) return [];
  if (!info.isFile()) return [dotGit];
  const gitDirectory = pointedAt(dotGit, checkout, /^gitdir: (.+)$/);
  if (gitDirectory === undefined) return [];
  const common = pointedAt(join(gitDirectory, 'commondir'), gitDirectory, /^(.+)$/);
  return common === undefined ? [gitDirectory] : [gitDirectory, common];
}

/** The path a one-line pointer file names, relative to `base` when it is relative, or undefined. */
function pointedAt(file: string, base: string, line: RegExp): string | undefined {
  const named = readSmallFile(file, POINTER_BYTES)?.split('\n')[0]?.trim().match(line)?.[1];
  return named === undefined ? undefined : resolve(base, named);
}

/** A small regular file's text, or undefined when it is missing, not regular or larger than `maxBytes`. */
function readSmallFile(path: string, maxBytes: number): string | undefined {
  let fd: number;
  try {
    fd = openRegularFileSync(path);
  } catch {
    return undefined;
  }
  try {
    const { size } = fstatSync(fd);
    if (size > maxBytes) return undefined;
    const buffer = Buffer.alloc(size);
    const read = readSync(fd, buffer, 0, size, 0);
    return buffer.toString('utf8', 0, read);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
