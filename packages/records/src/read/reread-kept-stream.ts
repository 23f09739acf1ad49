import { EventStreamReader, type StreamReading } from '@statecraft/adapter';
import { readKeptFile, type KeptFileReading } from './read-kept-file.js';

/**
 * Another reader of the same pass over a kept stream (the reviewer's page: its timeline and its
 * embedded start): handed every chunk the digest is made of, then that digest, so what it shows is
 * the very bytes that were digested and classified, and the stream is read once for all of them.
 * A chunk is lent for the call: what is kept of it must be copied.
 */
export interface KeptStreamConsumer {
  push(chunk: Buffer): void;
  end(reading: KeptFileReading): void;
}

export type KeptStreamReading = { kind: 'read'; sha256: string; bytes: number; reading: StreamReading } | { kind: 'unreadable'; message: string };

/**
 * Reads a kept event stream once, in bounded chunks: its digest (is it the file the chain
 * sealed?) and, from the same bytes, what the supervisor's own reader makes of it (R7.5). Memory
 * stays bounded by the reader's own bounds, so a stream of gigabytes costs time, not memory.
 *
 * `endOfStream`: whether the supervisor read the pipe to its end. After a deadline it did not — it
 * took what was read at that moment and stopped (R7.2), so an unfinished last line was never read
 * and no `no-result` was claimed; the re-reading stops the same way, or it would disagree with an
 * honest record.
 */
export function rereadKeptStream(path: string, options: { endOfStream: boolean; alsoTo?: KeptStreamConsumer }): KeptStreamReading {
  const reader = new EventStreamReader();
  const also = options.alsoTo;
  // Lent: the reader copies what it keeps of a line, and so must another reader.
  const kept = readKeptFile(path, also === undefined ? (chunk) => reader.push(chunk) : (chunk) => (reader.push(chunk), also.push(chunk)), { lent: true });
  also?.end(kept);
  if (kept.kind === 'unreadable') return kept;
  if (options.endOfStream) reader.end();
  return { ...kept, reading: reader.reading() };
}
