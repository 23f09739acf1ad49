import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, realpath, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { sha256Hex } from '../content-digest.js';
import { FileIdentitySchema, readFileIdentity, sameFileIdentity } from '../file-identity.js';

/** What `bwrap --version` said, remembered under the real path and identity of the bwrap that said it. */
const RememberedVersionSchema = z.strictObject({
  path: z.string().startsWith('/'),
  identity: FileIdentitySchema,
  version: z.string().min(1),
});
type RememberedVersion = z.infer<typeof RememberedVersionSchema>;

/**
 * bwrap's version for the boundary record (R12), asked once per bwrap binary rather than on every
 * launch and every acceptance: remembered in `cacheDirectory` under the binary's real path and
 * identity (device, inode, size, modification and change times — digest-cache.ts), so an upgraded
 * or replaced bwrap is asked again. The identity is read before and after asking; an answer whose
 * binary moved meanwhile is used but not remembered. An unreadable or unwritable cache only costs
 * the process; it never changes the answer.
 */
export async function rememberedBwrapVersion(bwrap: string, cacheDirectory: string, ask: () => Promise<string>): Promise<string> {
  let real: string;
  let identity;
  try {
    real = await realpath(bwrap);
    identity = await readFileIdentity(real);
  } catch {
    return ask();
  }
  const entryFile = join(cacheDirectory, `bwrap-version-${sha256Hex(real)}.json`);
  const remembered = await readEntry(entryFile);
  if (remembered !== undefined && remembered.path === real && sameFileIdentity(remembered.identity, identity)) return remembered.version;
  const version = await ask();
  const still = await readFileIdentity(real).catch(() => undefined);
  // `not-recorded` (bwrap said nothing) is never remembered: the next launch asks again.
  if (version !== 'not-recorded' && still !== undefined && sameFileIdentity(still, identity)) {
    await writeEntry(cacheDirectory, entryFile, { path: real, identity, version });
  }
  return version;
}

async function readEntry(entryFile: string): Promise<RememberedVersion | undefined> {
  try {
    const parsed = RememberedVersionSchema.safeParse(JSON.parse(await readFile(entryFile, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Whole, to a private name renamed into place; not fsync'd: a lost entry costs one `bwrap --version`. */
async function writeEntry(cacheDirectory: string, entryFile: string, remembered: RememberedVersion): Promise<void> {
  const temporary = `${entryFile}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await mkdir(cacheDirectory, { recursive: true, mode: 0o700 });
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(`${JSON.stringify(remembered)}\n`);
    } finally {
      await handle.close();
    }
    await rename(temporary, entryFile);
  } catch {
    await unlink(temporary).catch(() => undefined);
  }
}
