import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { sha256Hex } from '@statecraft/adapter';
import { FileIdentitySchema, readFileIdentity, sameFileIdentity } from '@statecraft/adapter';
import { productHomeLayout } from './product-home.js';
import { readRememberedEntry, writeRememberedEntry } from './remembered-entry-file.js';

/** What `bwrap --version` said, remembered under the real path and identity of the bwrap that said it. */
const RememberedVersionSchema = z.strictObject({
  path: z.string().startsWith('/'),
  identity: FileIdentitySchema,
  version: z.string().min(1),
});

/**
 * bwrap's version for the boundary record (R12), asked once per bwrap binary rather than on every
 * launch and every acceptance: remembered in `cacheDirectory` under the binary's real path and
 * identity (device, inode, size, modification and change times — remembered-digests.ts), so an upgraded
 * or replaced bwrap is asked again. The identity is read before and after asking; an answer whose
 * binary moved meanwhile is used but not remembered. An unreadable or unwritable cache only costs
 * the process; it never changes the answer.
 */
async function rememberedBwrapVersion(bwrap: string, cacheDirectory: string, ask: () => Promise<string>): Promise<string> {
  let real: string;
  let identity;
  try {
    real = await realpath(bwrap);
    identity = await readFileIdentity(real);
  } catch {
    return ask();
  }
  const entryFile = join(cacheDirectory, `bwrap-version-${sha256Hex(real)}.json`);
  const remembered = await readRememberedEntry(entryFile, RememberedVersionSchema);
  if (remembered !== undefined && remembered.path === real && sameFileIdentity(remembered.identity, identity)) return remembered.version;
  const version = await ask();
  const still = await readFileIdentity(real).catch(() => undefined);
  // `not-recorded` (bwrap said nothing) is never remembered: the next launch asks again.
  if (version !== 'not-recorded' && still !== undefined && sameFileIdentity(still, identity)) {
    await writeRememberedEntry(cacheDirectory, entryFile, { path: real, identity, version });
  }
  return version;
}

/**
 * The boundary's way to remember bwrap's version in this product home: environment asks bwrap,
 * records keeps the answer (environment writes nothing under the home).
 */
export function bwrapVersionMemo(productHome: string): (bwrap: string, ask: () => Promise<string>) => Promise<string> {
  const cacheDirectory = productHomeLayout(productHome).toolVersions;
  return (bwrap, ask) => rememberedBwrapVersion(bwrap, cacheDirectory, ask);
}
