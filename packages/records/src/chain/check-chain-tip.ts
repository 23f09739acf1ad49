import { fstatSync, readSync } from 'node:fs';
import { sha256Hex } from '@statecraft/adapter';
import type { ChainPosition } from './append-record.js';
import { MAX_RECORD_BYTES } from './record-bound.js';

/**
 * The chain no longer ends where the position a record was about to link to was read: another
 * writer appended (two supervisors holding one target, R8.5) or the file was edited. Nothing was
 * written; linking here would fork the chain for good.
 */
export class ChainMovedError extends Error {
  readonly path: string;
  constructor(path: string, what: string) {
    super(
      `${path}: ${what}, so the record was not written: another writer appended since it was read, or the chain was edited; ` +
        'nothing was written — run `statecraft doctor`, then run again',
    );
    this.name = 'ChainMovedError';
    this.path = path;
  }
}

const NEWLINE = 0x0a;
/** How far back one read looks for the start of the last line. */
const CHUNK = 64 * 1024;

/**
 * Checks, on the open chain file, that `position` is still its tip (R8.4): the file is exactly
 * as long as when the position was read (a torn tail included, with the same bytes), and its last
 * complete line is the one whose digest is `position.head` and whose seq precedes `nextSeq`. Only
 * the tail is read, so the cost does not grow with the chain. Throws ChainMovedError otherwise.
 *
 * The repository lock is what keeps a second writer out; this is the check that a broken lock
 * cannot turn into a forked chain without it being noticed before the write. (A writer that
 * appends between this check and the write is not caught here: only the lock excludes that.)
 */
export function checkChainTip(fd: number, path: string, position: ChainPosition): void {
  const size = fstatSync(fd).size;
  const tornBytes = position.torn === 'none' ? 0 : position.torn.bytes;
  if (size !== position.length + tornBytes) {
    throw new ChainMovedError(path, `the chain is ${size} bytes, but it was ${position.length + tornBytes} when the head this record links to was read`);
  }
  if (position.torn !== 'none') {
    const torn = readAt(fd, position.torn.offset, position.torn.bytes);
    if (position.torn.offset !== position.length || sha256Hex(torn) !== position.torn.sha256) {
      throw new ChainMovedError(path, `the torn final line at byte ${position.torn.offset} is not the one read before`);
    }
  }
  if (position.nextSeq === 0) {
    if (position.length !== 0 || position.head !== 'genesis') throw new ChainMovedError(path, 'the chain is not empty, though the record was to be its first');
    return;
  }
  const last = readLineEndingAt(fd, position.length);
  if (last === undefined || sha256Hex(last) !== position.head) {
    throw new ChainMovedError(path, `the last record is not the head ${position.head} this record links to`);
  }
  const seq = seqOf(last);
  if (seq !== position.nextSeq - 1) {
    throw new ChainMovedError(path, `the last record carries seq ${String(seq)}, but this record was to follow seq ${position.nextSeq - 1}`);
  }
}

/**
 * The complete line that ends (with its newline) at byte `end`, or undefined if none does. Read
 * backwards from `end` in chunks: nothing before the line's start is read. Synchronous: a line is
 * a few kilobytes, read from the page cache in far less time than a round trip through libuv's
 * thread pool, which the attempt's fsyncs keep busy exactly when the chain is appended to. A line
 * longer than any record is none (undefined), read no further than the bound.
 */
export function readLineEndingAt(fd: number, end: number): Buffer | undefined {
  if (end === 0 || readAt(fd, end - 1, 1)[0] !== NEWLINE) return undefined;
  const chunks: Buffer[] = [];
  let start = end - 1;
  while (start > 0) {
    // No record is longer than the bound (record-bound.ts): a longer run of bytes is no record's line.
    if (end - 1 - start > MAX_RECORD_BYTES) return undefined;
    const from = Math.max(0, start - CHUNK);
    const chunk = readAt(fd, from, start - from);
    const newline = chunk.lastIndexOf(NEWLINE);
    if (newline !== -1) {
      chunks.unshift(chunk.subarray(newline + 1));
      break;
    }
    chunks.unshift(chunk);
    start = from;
  }
  return Buffer.concat(chunks);
}

/** Up to `length` bytes at `offset` (fewer at the end of the file). */
export function readAt(fd: number, offset: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  const bytesRead = readSync(fd, buffer, 0, length, offset);
  return buffer.subarray(0, bytesRead);
}

function seqOf(line: Buffer): number | 'unreadable' {
  try {
    const record = JSON.parse(line.toString('utf8')) as { seq?: unknown };
    return typeof record.seq === 'number' ? record.seq : 'unreadable';
  } catch {
    return 'unreadable';
  }
}
