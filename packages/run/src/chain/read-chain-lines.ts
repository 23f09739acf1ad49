import type { FileHandle } from 'node:fs/promises';

const NEWLINE = 0x0a;
/** One read: large enough that syscalls are not the cost, small enough that memory stays flat. */
const CHUNK = 4 * 1024 * 1024;

/**
 * Called for each complete line, in order. `isLast`: no complete line follows it in the file.
 * `end`: the byte offset just past its newline. Return false to stop reading.
 */
export type OnChainLine = (line: Buffer, isLast: boolean, end: number) => boolean;

/** Where the reading stopped: past the last complete line read, and the bytes after it, if any. */
export interface LinesRead {
  /** Offset just past the last complete line handed out (or `from`, if none). */
  end: number;
  /** Bytes after the last complete line, up to the end of the file: a torn final line. */
  rest: Buffer;
  stopped: boolean;
}

/**
 * Reads the file's complete lines from byte `from`, in chunks, so memory holds one chunk (or one
 * line, if a line is longer) whatever the chain's length, and nothing before `from` is read.
 * A line is handed out only once the newline after it is in the buffer or the file has ended,
 * so `isLast` is known without a second pass.
 */
export async function readChainLines(handle: FileHandle, from: number, onLine: OnChainLine): Promise<LinesRead> {
  let buffer = Buffer.allocUnsafe(CHUNK);
  // Bytes [0, filled) of the buffer hold the file from `bufferAt` on.
  let bufferAt = from;
  let filled = 0;
  let ended = false;
  let start = 0;
  while (true) {
    if (!ended) {
      if (filled === buffer.length) {
        // One line longer than the buffer: grow it rather than split the line.
        const larger = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(larger, 0, 0, filled);
        buffer = larger;
      }
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, bufferAt + filled);
      if (bytesRead === 0) ended = true;
      filled += bytesRead;
    }
    let newline = buffer.indexOf(NEWLINE, start);
    if (newline >= filled) newline = -1;
    while (newline !== -1) {
      let next = buffer.indexOf(NEWLINE, newline + 1);
      if (next >= filled) next = -1;
      // Whether a line follows is known only once its newline is read, or the file has ended.
      if (next === -1 && !ended) break;
      const end = bufferAt + newline + 1;
      if (!onLine(buffer.subarray(start, newline), next === -1, end)) return { end, rest: Buffer.alloc(0), stopped: true };
      start = newline + 1;
      newline = next;
    }
    if (ended) return { end: bufferAt + start, rest: Buffer.from(buffer.subarray(start, filled)), stopped: false };
    // Keep the unfinished part at the front of the buffer, then read on behind it.
    buffer.copy(buffer, 0, start, filled);
    bufferAt += start;
    filled -= start;
    start = 0;
  }
}
