import type { FileHandle } from 'node:fs/promises';
import { MAX_RECORD_BYTES } from './record-bound.js';

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
  /**
   * The offset of a line longer than any record (record-bound.ts), where reading stopped without
   * reading the rest of it: `end` is that offset and `rest` empty. Not a torn tail, whatever follows.
   */
  overlongAt?: number;
}

/** The complete lines of one read, in place in the buffer they were read into. */
export interface LineBatch {
  bytes: Buffer;
  /** Line `i` is `bytes[starts[i], ends[i])`; its newline is at `ends[i]`. */
  starts: number[];
  ends: number[];
  /** The file offset of `bytes[0]`. */
  at: number;
  /** This batch's last line is the file's last complete line (`isLast`). */
  endsFile: boolean;
}

/** How the reader gets its buffers: shared ones, when another thread hashes the lines in place. */
export type AllocateBuffer = (size: number) => Buffer;

/**
 * The file's complete lines from byte `from`, one batch per read, so memory holds `rotating` chunks
 * (or as many lines, if a line is longer) whatever the chain's length, and nothing before `from` is
 * read. A line is handed out only once the newline after it is in the buffer or the file has ended,
 * so `isLast` is known without a second pass. Reads rotate through the buffers, and the next
 * read starts before a batch is handed out, so it proceeds while the batch is parsed: awaited
 * only when the next batch is asked for, the reads left `run list`'s main thread idle for a share
 * of its time (decision 0023). A batch's bytes stay as read until the batch
 * `rotating - 1` after it is asked for (with three, the batch after the next one), so its lines
 * can be hashed elsewhere meanwhile. The generator returns where it stopped.
 */
export async function* readChainBatches(
  handle: FileHandle,
  from: number,
  allocate: AllocateBuffer = (size) => Buffer.allocUnsafe(size),
  rotating = 3,
): AsyncGenerator<LineBatch, LinesRead> {
  const buffers: (Buffer | undefined)[] = [allocate(CHUNK), ...Array.from({ length: rotating - 1 }, () => undefined)];
  let current = 0;
  let buffer = buffers[0]!;
  // Bytes [0, filled) of the buffer hold the file from `bufferAt` on; `reading` fills it on.
  let bufferAt = from;
  let filled = 0;
  let reading = handle.read(buffer, 0, buffer.length, bufferAt);
  while (true) {
    const { bytesRead } = await reading;
    const ended = bytesRead === 0;
    filled += bytesRead;
    const batch: LineBatch = { bytes: buffer, starts: [], ends: [], at: bufferAt, endsFile: ended };
    let start = 0;
    // Searched only where the file was read: past it lies memory never written, and a search
    // through it faults in every page of the buffer (milliseconds for each append to a small chain).
    const read = buffer.subarray(0, filled);
    let newline = read.indexOf(NEWLINE, 0);
    let overlong = false;
    while (newline !== -1 && newline < filled) {
      if (newline - start > MAX_RECORD_BYTES) {
        overlong = true;
        break;
      }
      batch.starts.push(start);
      batch.ends.push(newline);
      start = newline + 1;
      newline = read.indexOf(NEWLINE, start);
    }
    // The line after the last newline, unfinished so far, or the whole rest of the file.
    if (filled - start > MAX_RECORD_BYTES) overlong = true;
    if (overlong) {
      // The lines before it are handed out (none is the file's last: the overlong line follows).
      batch.endsFile = false;
      if (batch.starts.length > 0) yield batch;
      return { end: bufferAt + start, rest: Buffer.alloc(0), stopped: false, overlongAt: bufferAt + start };
    }
    // Whether a line follows is known only once its newline is read, or the file has ended:
    // until then the last complete line is held back, to be handed out with what follows it.
    if (!ended && batch.starts.length > 0) {
      start = batch.starts.pop()!;
      batch.ends.pop();
    }
    if (ended) {
      if (batch.starts.length > 0) yield batch;
      return { end: bufferAt + start, rest: Buffer.from(buffer.subarray(start, filled)), stopped: false };
    }
    if (start === 0) {
      // No line ends in the buffer yet: read on into it, grown if one line is longer than it.
      if (filled === buffer.length) {
        const larger = allocate(buffer.length * 2);
        buffer.copy(larger, 0, 0, filled);
        buffer = buffers[current] = larger;
      }
      reading = handle.read(buffer, filled, buffer.length - filled, bufferAt + filled);
      continue;
    }
    // Read on into the next buffer, behind the unfinished part, before this batch is handed out;
    // the buffer it overwrites held the batch before the previous one, whose bytes are released.
    const held = filled - start;
    current = (current + 1) % buffers.length;
    let next = buffers[current];
    if (next === undefined || next.length < held + CHUNK / 2) next = buffers[current] = allocate(Math.max(CHUNK, 2 * held));
    buffer.copy(next, 0, start, filled);
    const nextAt = bufferAt + start;
    reading = handle.read(next, held, next.length - held, nextAt + held);
    // Awaited when the next batch is asked for; a reader that stops before then never awaits it.
    reading.catch(() => undefined);
    yield batch;
    buffer = next;
    bufferAt = nextAt;
    filled = held;
  }
}

/** The same lines one at a time, for readers that need nothing across lines. */
export async function readChainLines(handle: FileHandle, from: number, onLine: OnChainLine): Promise<LinesRead> {
  const batches = readChainBatches(handle, from);
  while (true) {
    const step = await batches.next();
    if (step.done === true) return step.value;
    const { bytes, starts, ends, at, endsFile } = step.value;
    for (let index = 0; index < starts.length; index += 1) {
      const end = at + ends[index]! + 1;
      if (!onLine(bytes.subarray(starts[index], ends[index]), endsFile && index === starts.length - 1, end)) {
        await batches.return({ end, rest: Buffer.alloc(0), stopped: true });
        return { end, rest: Buffer.alloc(0), stopped: true };
      }
    }
  }
}
