import { randomBytes } from 'node:crypto';
import { link, open, rename, unlink } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';

/**
 * Writes a whole file durably: a temporary sibling is written and fsync'd, moved onto the name,
 * and the directory fsync'd, so a crash leaves either nothing or the complete file (records are
 * written atomically, or appended and fsync'd). `exclusive` writes a file once: the temporary is
 * hard-linked into place, which fails if the name exists where a rename would replace it — for
 * evidence that must never be rewritten (a qualification record, a request).
 */
export async function writeFileDurably(path: string, data: string | Uint8Array, options: { mode?: number; exclusive?: boolean } = {}): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', options.mode ?? 0o600);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    // A full disk: the partial temporary would hold space the caller may need to record the failure.
    await handle.close();
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  await handle.close();
  try {
    if (options.exclusive === true) await link(temporary, path);
    else await rename(temporary, path);
  } finally {
    // After a rename the temporary name is already gone; after a link (or a failure) it is removed here.
    await unlink(temporary).catch(() => undefined);
  }
  await syncDirectory(dirname(path));
}

/** Makes a directory entry (a created or renamed file) durable. */
export async function syncDirectory(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
