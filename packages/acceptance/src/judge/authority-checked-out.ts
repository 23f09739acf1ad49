import { createHash } from 'node:crypto';
import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AuthorityFile } from './suite-at-base.js';

/**
 * The authority set's files whose bytes in the fresh worktree are not their blobs at the base
 * (R13.5), read before any check runs. Git converts on checkout what its attributes and
 * configuration ask — the repository's `info/attributes`, `core.attributesFile`, `core.autocrlf`,
 * a filter's smudge — none of which the candidate holds, so a clean reading (git applies the same
 * conversion when it compares) would not show it; the checks would judge authority bytes the base
 * does not hold. Each file is hashed as git names a blob (`blob <size>\0<bytes>`, sha1 or sha256
 * by the object name's length), never through git's filters. A file that is missing or is not a
 * regular file in the worktree counts too.
 */
export async function findAuthorityCheckedOutOtherwise(worktree: string, files: readonly AuthorityFile[]): Promise<string[]> {
  const differing: string[] = [];
  // A few files at a time: an authority set may hold a large test tree, whose bytes are not all held at once.
  let next = 0;
  const reader = async (): Promise<void> => {
    for (let file = files[next++]; file !== undefined; file = files[next++]) {
      if (!(await checkedOutAsBlob(join(worktree, file.path), file.object))) differing.push(file.path);
    }
  };
  await Promise.all(Array.from({ length: READERS }, reader));
  return differing.sort();
}

const READERS = 8;

async function checkedOutAsBlob(path: string, object: string): Promise<boolean> {
  const kind = await lstat(path).catch(() => undefined);
  if (kind?.isFile() !== true) return false;
  const bytes = await readFile(path).catch(() => undefined);
  if (bytes === undefined) return false;
  const hash = createHash(object.length === 64 ? 'sha256' : 'sha1');
  hash.update(`blob ${bytes.length}\0`);
  hash.update(bytes);
  return hash.digest('hex') === object;
}
