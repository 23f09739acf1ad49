import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { sha256Hex, syncDirectory } from '@statecraft/adapter';
import type { ChainRecord, UnlinkedRecord } from './record-schemas.js';
import type { TornTail } from './open-chain.js';
import { checkChainTip } from './check-chain-tip.js';
import { refuseUnreadableRecord } from './refuse-unreadable-record.js';
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
 * after it is kept as the chain's checkpoint, where the next append starts verifying — written
 * behind the return, and before this process appends to the chain again.
 */
export async function appendRecord(chainFile: string, position: ChainPosition, unlinked: UnlinkedRecord): Promise<AppendedRecord> {
  await checkpointsBeingWritten.get(chainFile);
  // `prev` first: a reader can follow links in the raw text, and the record reads in chain order.
  const record = { prev: position.head, seq: position.nextSeq, format: 1, ...unlinked } as ChainRecord;
  refuseUnreadableRecord(chainFile, record);
  const line = JSON.stringify(record);
  const created = position.nextSeq === 0 && position.torn === 'none';
  if (created) await mkdir(dirname(chainFile), { recursive: true, mode: 0o700 });
  // Read and append: the tail is checked through the same open file the record is written to.
  const handle = await open(chainFile, 'a+', 0o600);
  try {
    await checkChainTip(handle, chainFile, position);
    if (position.torn !== 'none') {
      await handle.truncate(position.torn.offset);
      await handle.sync();
    }
    await handle.writeFile(`${line}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  if (created) await syncDirectory(dirname(chainFile));
  const digest = sha256Hex(line);
  const length = position.length + Buffer.byteLength(line) + 1;
  const after: ChainPosition = { head: digest, nextSeq: position.nextSeq + 1, length, torn: 'none' };
  // Behind the return: an intent's spawn need not wait for it (it never fails; a checkpoint not
  // written only makes the next opening verify from an earlier one).
  const checkpointed = writeChainCheckpoint(chainFile, after);
  checkpointsBeingWritten.set(chainFile, checkpointed);
  void checkpointed.then(() => {
    if (checkpointsBeingWritten.get(chainFile) === checkpointed) checkpointsBeingWritten.delete(chainFile);
  });
  return { record, digest, position: after };
}

/**
 * The checkpoint each chain's last append is writing, in this process. An append returns once its
 * record is durable and leaves its checkpoint being written; the next append to the same chain
 * waits for it first, so checkpoints land in the order of their appends and none is overwritten by
 * an older one. Node ends no process while a file operation is pending, so the last is written too.
 */
const checkpointsBeingWritten = new Map<string, Promise<void>>();
