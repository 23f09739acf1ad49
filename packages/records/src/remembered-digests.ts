import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { hashFile, type KnownDigest, KnownDigestSchema, readFileIdentity, sameFileIdentity, sha256Hex } from '@statecraft/adapter';
import { readRememberedEntry, writeRememberedEntry } from './remembered-entry-file.js';

/**
 * `sha256:<hex>` of a file's bytes, remembered in `cacheDirectory` under its real path and identity
 * (device, inode, size, modification and change times in nanoseconds): a provider binary of
 * hundreds of megabytes is hashed once, not on every attempt. A file whose
 * identity moved while it was hashed is not remembered. An unreadable or unwritable cache only
 * costs the hashing; it never changes the answer.
 */
export async function digestFileCached(path: string, cacheDirectory: string): Promise<string> {
  return `sha256:${(await knownDigestOf(path, cacheDirectory)).sha256}`;
}

/** The remembered digest of a file, computing and remembering it on a miss (see digestFileCached). */
export async function knownDigestOf(path: string, cacheDirectory: string): Promise<KnownDigest> {
  const real = await realpath(path);
  const identity = await readFileIdentity(real);
  const entryFile = join(cacheDirectory, `${sha256Hex(real)}.json`);
  const remembered = await readRememberedEntry(entryFile, KnownDigestSchema);
  if (remembered !== undefined && remembered.path === real && sameFileIdentity(remembered.identity, identity)) return remembered;
  const { sha256 } = await hashFile(real);
  const known: KnownDigest = { path: real, identity, sha256 };
  // Bytes that changed while they were read have no one digest: answer, but remember nothing.
  if (sameFileIdentity(await readFileIdentity(real), identity)) await writeRememberedEntry(cacheDirectory, entryFile, known);
  return known;
}
