import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';

/**
 * Writes a whole file durably: a temporary sibling is written and fsync'd, renamed over the
 * name, and the directory fsync'd, so a crash leaves either nothing or the complete file
 * (ARCHITECTURE: writes are atomic or append + fsync).
 */
export async function writeFileDurably(path: string, data: string | Uint8Array, mode = 0o600): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', mode);
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
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
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
