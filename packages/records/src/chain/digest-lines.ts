import { hash } from 'node:crypto';
import type { AllocateBuffer, LineBatch } from './read-chain-lines.js';
import { startWorkerDigester } from './digest-lines-on-worker.js';
import type { WorkerBatchReading, WorkerReadingSetup } from './summary-reading-on-worker.js';

/**
 * The sha256 of every line of a batch, over its exact bytes (R8.4): what the next record's `prev`
 * must carry. Asked for as soon as a batch is read, awaited once its records are parsed, so the
 * hashing can run beside the parsing.
 */
export interface LineDigester {
  /** The buffers the reader must read into for `digest` to see them. */
  allocate: AllocateBuffer;
  /** Lowercase hex, one per line of the batch, in order. */
  digest(batch: LineBatch): Promise<string[]>;
  /**
   * Only on a worker given a reading: hashes the batch and reads its first `lines` lines too, so
   * the reading is shared between two threads (summary-reading-on-worker.ts).
   */
  digestAndRead?: (batch: LineBatch, lines: number) => Promise<WorkerBatchReading>;
  /** Only on a worker: how many batches it has answered so far, known at once (not by its messages). */
  finished?: () => number;
  close(): Promise<void>;
}

/** Below this many bytes to verify, a thread's start-up costs more than it saves. */
export const WORKER_DIGEST_THRESHOLD = 8 * 1024 * 1024;

/** A worker for long readings (two cores hash and parse at once), this thread for short ones. */
export function digesterFor(bytesToRead: number, reading?: WorkerReadingSetup): LineDigester {
  return bytesToRead >= WORKER_DIGEST_THRESHOLD ? startWorkerDigester(reading) : inlineDigester;
}

/** sha256 of exact bytes, in hex, in one call: this runs once per record of the chain. */
export function sha256Of(bytes: Uint8Array): string {
  return hash('sha256', bytes, 'hex');
}

const inlineDigester: LineDigester = {
  allocate: (size) => Buffer.allocUnsafe(size),
  digest({ bytes, starts, ends }) {
    return Promise.resolve(starts.map((start, index) => sha256Of(bytes.subarray(start, ends[index]))));
  },
  close: () => Promise.resolve(),
};
