import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { sha256Hex, syncDirectory } from '@statecraft/adapter';
import type { ChainRecord, UnlinkedRecord } from './record-schemas.js';
import type { TornTail } from './open-chain.js';
import { checkChainTip } from './check-chain-tip.js';

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
 * the current tip is refused (ChainMovedError), never written.
 */
export async function appendRecord(chainFile: string, position: ChainPosition, unlinked: UnlinkedRecord): Promise<AppendedRecord> {
  // `prev` first: a reader can follow links in the raw text, and the record reads in chain order.
  const record = { prev: position.head, seq: position.nextSeq, format: 1, ...unlinked } as ChainRecord;
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
  return { record, digest, position: { head: digest, nextSeq: position.nextSeq + 1, length, torn: 'none' } };
}
