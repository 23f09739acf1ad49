import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/**
 * Opens a file statecraft keeps (a chain, its checkpoint, a lock, a kept stream) only if it is a
 * regular file. Opening a FIFO waits for a writer, and a synchronous open that waits holds the
 * whole process: a FIFO left at a chain's path would hang every verb, and `run` would ignore
 * SIGTERM and Ctrl-C. Opened non-blocking, which a regular file ignores, then refused unless fstat says regular: a FIFO, a device or a directory names its path (ENOTREG).
 */
const NEVER_WAIT = constants.O_NONBLOCK | constants.O_NOCTTY;

export type RegularFlags = 'r' | 'a+';

const FLAGS: Record<RegularFlags, number> = {
  r: constants.O_RDONLY,
  'a+': constants.O_RDWR | constants.O_APPEND | constants.O_CREAT,
};

/** The error a file that is not regular gives: `code` and `path` as a system error's, so the CLI names it (exit 4). */
function notRegular(path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${path}: not a regular file (a FIFO, device or directory stands where statecraft keeps a file)`), { code: 'ENOTREG', path });
}

/**
 * What stands at a path that {@link openRegularFile} or {@link openRegularFileSync} (or a read
 * through them) would not open, in a few plain words that follow the path in a sentence: `is
 * missing`, `is not a regular file (…)` for the ENOTREG they give, or `cannot be read (CODE)`.
 * One wording for every finding that names such a file (a kept file, target.json, a lock).
 */
export function describeUnopenable(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  if (code === 'ENOENT') return 'is missing';
  if (code === 'ENOTREG') return 'is not a regular file (a FIFO, a device, a directory, or a link to one)';
  return `cannot be read (${code ?? message})`;
}

export function openRegularFileSync(path: string, flags: RegularFlags = 'r', mode = 0o600): number {
  const fd = openSync(path, FLAGS[flags] | NEVER_WAIT, mode);
  let regular: boolean;
  try {
    regular = fstatSync(fd).isFile();
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  if (!regular) {
    closeSync(fd);
    throw notRegular(path);
  }
  return fd;
}

export async function openRegularFile(path: string): Promise<FileHandle> {
  const handle = await open(path, FLAGS.r | NEVER_WAIT);
  const regular = await handle.stat().then(
    (info) => info.isFile(),
    async (error: unknown) => {
      await handle.close();
      throw error;
    },
  );
  if (!regular) {
    await handle.close();
    throw notRegular(path);
  }
  return handle;
}

/**
 * A regular file's whole text, read through {@link openRegularFile}. With `maxBytes`, a file longer
 * than that is refused (EFBIG, naming it) having read no more than the bound: the small files
 * statecraft reads (a manifest, a record, the target's name) are read whole, and a huge one at their
 * path must not cost its size in memory (a 3 GiB file threw "greater than 2 GiB"; a smaller huge
 * one was held whole).
 */
export async function readRegularFile(path: string, maxBytes = Number.POSITIVE_INFINITY): Promise<string> {
  const handle = await openRegularFile(path);
  try {
    if (maxBytes === Number.POSITIVE_INFINITY) return await handle.readFile('utf8');
    // Sized by the file, not the bound: these reads are on `run`'s path (a manifest, each
    // qualification record), and a buffer of the bound each time was 16 MiB filled per record.
    // One byte over the size read tells a file that grew since; it grows, up to one past the bound.
    const { size } = await handle.stat();
    let buffer = Buffer.allocUnsafe(Math.min(size, maxBytes) + 1);
    let filled = 0;
    while (true) {
      if (filled === buffer.length) {
        if (buffer.length > maxBytes) break;
        const larger = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
        buffer.copy(larger, 0, 0, filled);
        buffer = larger;
      }
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (filled > maxBytes) throw Object.assign(new Error(`${path}: longer than ${maxBytes} bytes, more than such a file holds`), { code: 'EFBIG', path });
    return buffer.toString('utf8', 0, filled);
  } finally {
    await handle.close();
  }
}

/**
 * The last `bytes` bytes of a regular file, read synchronously through {@link openRegularFileSync}:
 * what a tail shows (a failing check's output) costs the tail, not the file. A check's kept output
 * grows with whatever the check printed: read whole, 600 MiB of it took `accept`'s answer to 720 MB.
 */
export function readRegularFileTail(path: string, bytes: number): Buffer {
  const fd = openRegularFileSync(path);
  try {
    const { size } = fstatSync(fd);
    const tail = Buffer.alloc(Math.min(size, bytes));
    let filled = 0;
    while (filled < tail.length) {
      const read = readSync(fd, tail, filled, tail.length - filled, size - tail.length + filled);
      if (read === 0) break;
      filled += read;
    }
    return tail.subarray(0, filled);
  } finally {
    closeSync(fd);
  }
}
