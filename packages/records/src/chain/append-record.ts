import { closeSync, fsyncSync, ftruncateSync } from 'node:fs';
import { dirname } from 'node:path';
import { makeDirectories } from '@statecraft/adapter';
import { openRegularFileSync, sha256Hex } from '@statecraft/adapter';
import { syncDirectory, writeAllSync } from '../durable-write.js';
import type { ChainRecord, UnlinkedRecord } from './record-schemas.js';
import type { TornTail } from './open-chain.js';
import { checkChainTip } from './check-chain-tip.js';
import { refuseOverlongRecord, refuseUnreadableRecord } from './refuse-unreadable-record.js';
import { writeChainCheckpoint } from './chain-checkpoint.js';

/** Where the chain stands before an append: its head digest, next seq, and a torn tail to cut. */
export interface ChainPosition {
  /** The last line's sha256, or `genesis` for an empty chain. */
  head: string;
  nextSeq: number;
  /** Bytes of the chain's complete lines when the position was read: where the next record starts. */
  length: number;
  torn: 'none' | TornTail;
}

export interface AppendedRecord {
  record: ChainRecord;
  digest: string;
  /** The position after this record, for the next append. */
  position: ChainPosition;
}

/**
 * Appends one record and fsyncs it before returning (R8.4): when this resolves the record is
 * durable, so an intent appended here may be followed by a spawn. A torn tail found on opening
 * is truncated first — it was never acknowledged — and nothing before it is ever rewritten.
 * The caller holds the repository lock, so no other writer moves the head meanwhile; even so,
 * the position is checked against the file's tail first, and a record whose `prev` would not be
 * the current tip is refused (ChainMovedError), never written; so is a record the chain's reader
 * would refuse (UnreadableRecordError). `position` comes from a verified opening
 * (open-chain-for-append.ts) or the previous append: once the record is durable, the position
 * after it is kept as the chain's checkpoint, where the next append starts verifying.
 *
 * Every step is synchronous. An append is a handful of small file operations and one fsync, and
 * it comes exactly when the attempt's evidence files are being fsync'd through libuv's four
 * threads: queued behind those, each of its steps would wait for a thread, and the intent's
 * append is what the adapter's start waits for (decisions 0019, 0072). Nothing else this process
 * does needs its main thread during the fsync.
 */
export async function appendRecord(chainFile: string, position: ChainPosition, unlinked: UnlinkedRecord): Promise<AppendedRecord> {
  // `prev` first: a reader can follow links in the raw text, and the record reads in chain order.
  const record = { prev: position.head, seq: position.nextSeq, format: 1, ...unlinked } as ChainRecord;
  refuseUnreadableRecord(chainFile, record);
  const line = JSON.stringify(record);
  refuseOverlongRecord(chainFile, record, line);
  const created = position.nextSeq === 0 && position.torn === 'none';
  if (created) makeDirectories(dirname(chainFile), 0o700);
  // Read and append: the tail is checked through the same open file the record is written to.
  const fd = openRegularFileSync(chainFile, 'a+', 0o600);
  try {
    checkChainTip(fd, chainFile, position);
    if (position.torn !== 'none') {
      ftruncateSync(fd, position.torn.offset);
      fsyncSync(fd);
    }
    try {
      writeAllSync(fd, Buffer.from(`${line}\n`));
      fsyncSync(fd);
    } catch (error) {
      // A write cut short (a full disk) would leave a torn line that says an append happened. The
      // chain is put back to the length it had, under the same lock, so "nothing appended" is true.
      withdrawPartialLine(fd, position.length);
      throw error;
    }
  } finally {
    closeSync(fd);
  }
  if (created) await syncDirectory(dirname(chainFile));
  const digest = sha256Hex(line);
  const length = position.length + Buffer.byteLength(line) + 1;
  const after: ChainPosition = { head: digest, nextSeq: position.nextSeq + 1, length, torn: 'none' };
  // Never fails: a checkpoint not written only makes the next opening verify from an earlier one.
  writeChainCheckpoint(chainFile, after);
  return { record, digest, position: after };
}

/** Cuts the chain back to `length` and makes that durable; if even that fails, the torn tail is left for the next opening to report and cut. */
function withdrawPartialLine(fd: number, length: number): void {
  try {
    ftruncateSync(fd, length);
    fsyncSync(fd);
  } catch {
    // Nothing more to do here: readers report a torn tail, and the next append cuts it.
  }
}
