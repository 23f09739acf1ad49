import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';

/**
 * Writes a whole file durably: a temporary sibling is written and fsync'd, moved onto the name,
 * and the directory fsync'd, so a crash leaves either nothing or the complete file (records are
 * written atomically, or appended and fsync'd). `exclusive` writes a file once: the temporary is
 * hard-linked into place, which fails if the name exists where a rename would replace it — for
 * evidence that must never be rewritten (a qualification record, a request).
 *
 * Every step is synchronous. The files written this way are small (a request, a result, a
 * receipt, a record) and are written while no adapter or check is running — before its gate opens
 * (its sandbox waits there, and the boundary's probe's answer waits in its pipe) or after its tree
 * is gone — so nothing needs the main thread meanwhile; done through libuv's four threads, each
 * of the steps would queue behind the evidence files' fsyncs (decision 0072).
 */
export function writeFileDurably(path: string, data: string | Uint8Array, options: { mode?: number; exclusive?: boolean } = {}): Promise<void> {
  // The executor runs at once: the file is written before this returns, and a failure rejects.
  return new Promise((resolve) => {
    writeNow(path, data, options);
    resolve();
  });
}

function writeNow(path: string, data: string | Uint8Array, options: { mode?: number; exclusive?: boolean }): void {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const fd = openSync(temporary, 'wx', options.mode ?? 0o600);
  try {
    writeAllSync(fd, bytes);
    fsyncSync(fd);
  } catch (error) {
    // A full disk: the partial temporary would hold space the caller may need to record the failure.
    closeSync(fd);
    removeQuietly(temporary);
    throw error;
  }
  closeSync(fd);
  try {
    if (options.exclusive === true) linkSync(temporary, path);
    else renameSync(temporary, path);
  } finally {
    // After a rename the temporary name is already gone; after a link (or a failure) it is removed here.
    removeQuietly(temporary);
  }
  syncDirectorySync(dirname(path));
}

/** Writes every byte at the descriptor's position (the end, under O_APPEND), however many calls the kernel takes. */
export function writeAllSync(fd: number, bytes: Uint8Array): void {
  let written = 0;
  while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
}

/** Makes a directory entry (a created or renamed file) durable. */
export function syncDirectory(path: string): Promise<void> {
  return new Promise((resolve) => {
    syncDirectorySync(path);
    resolve();
  });
}

function syncDirectorySync(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone (renamed into place), or nothing more can be done for it.
  }
}
