import { createHash } from 'node:crypto';
import { closeSync, readSync } from 'node:fs';
import { describeUnopenable, openRegularFileSync } from '@statecraft/adapter';

/** Read size: one chunk is all that is held, whatever the size of a kept file. */
const CHUNK_BYTES = 256 * 1024;

/**
 * A kept file's digest as it stands, or why it could not be read. `why`: what stands at the path,
 * in words that follow it in a sentence (`is missing`, `is not a regular file …`; describeUnopenable).
 * `opened`: whether the file was opened before the read failed (a read error, not an absence).
 */
export type KeptFileReading =
  { kind: 'read'; sha256: string; bytes: number } | { kind: 'unreadable'; message: string; why: string; opened: boolean; error: unknown };

function unreadable(error: unknown, opened: boolean): KeptFileReading {
  return { kind: 'unreadable', message: (error as Error).message, why: describeUnopenable(error), opened, error };
}

/**
 * The one reader of a file kept beside the chain (launch/artifacts.ts writes them): read once, in
 * bounded chunks, hashing it and handing each chunk (the caller's to keep, unless only `lent`) to `onChunk`
 * when one is given. Whoever checks a kept file against its recorded digest (acceptance, doctor,
 * `run log`) or records one as it stands (reconcile) reads it here, so they cannot disagree on what
 * a file's digest is. Only a regular file is opened (openRegularFileSync). Synchronous on purpose:
 * `doctor` reads five small files per attempt over thousands of attempts, and a thread-pool hop per
 * read cost ten times the hashing (measured: 5,000 files, 1 s of CPU asynchronously, 0.1 s
 * synchronously); nothing else waits on the event loop of a reader that only reads.
 */
export function readKeptFile(path: string, onChunk?: (chunk: Buffer) => void, options: { lent?: boolean } = {}): KeptFileReading {
  const hash = createHash('sha256');
  let buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  let bytes = 0;
  let fd: number;
  try {
    fd = openRegularFileSync(path);
  } catch (error) {
    return unreadable(error, false);
  }
  try {
    for (;;) {
      const read = readSync(fd, buffer, 0, CHUNK_BYTES, null);
      if (read === 0) return { kind: 'read', sha256: hash.digest('hex'), bytes };
      const chunk = buffer.subarray(0, read);
      hash.update(chunk);
      bytes += read;
      // A caller that keeps the chunks gets each in a buffer of its own: a full read is handed
      // over and the next read goes to a new buffer (copying every chunk of a long file cost more
      // than hashing it); a short one, a small file's whole, is copied, so it does not pin a
      // whole read buffer. A chunk only lent (`lent`: the caller copies what it keeps, as the
      // stream's readers do) is read over by the next read: then reading makes no garbage
      // however large the file.
      if (onChunk === undefined) continue;
      if (options.lent === true) onChunk(chunk);
      else if (read < CHUNK_BYTES) onChunk(Buffer.from(chunk));
      else {
        onChunk(chunk);
        buffer = Buffer.allocUnsafe(CHUNK_BYTES);
      }
    }
  } catch (error) {
    return unreadable(error, true);
  } finally {
    closeSync(fd);
  }
}
