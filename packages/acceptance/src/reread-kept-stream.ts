import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { EventStreamReader, type StreamReading } from '@statecraft/adapter';

/** Read size: one chunk at a time is all that is held, whatever the size of the kept stream. */
const CHUNK_BYTES = 256 * 1024;

export type KeptStreamReading =
  | { kind: 'read'; sha256: string; bytes: number; reading: StreamReading }
  | { kind: 'unreadable'; message: string };

/**
 * Reads a kept event stream once, as a stream: its digest (is it the file the chain sealed?) and,
 * from the same bytes, what the supervisor's own reader makes of it (R7.5). Memory stays bounded
 * by the reader's own bounds, so a stream of gigabytes costs time, not memory.
 *
 * `endOfStream`: whether the supervisor read the pipe to its end. After a deadline it did not — it
 * took what was read at that moment and stopped (R7.2), so an unfinished last line was never read
 * and no `no-result` was claimed; the re-reading stops the same way, or it would disagree with an
 * honest record.
 */
export async function rereadKeptStream(path: string, options: { endOfStream: boolean }): Promise<KeptStreamReading> {
  const hash = createHash('sha256');
  const reader = new EventStreamReader();
  let bytes = 0;
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: CHUNK_BYTES })) {
      const buffer = chunk as Buffer;
      hash.update(buffer);
      bytes += buffer.length;
      reader.push(buffer);
    }
  } catch (error) {
    return { kind: 'unreadable', message: (error as Error).message };
  }
  if (options.endOfStream) reader.end();
  return { kind: 'read', sha256: hash.digest('hex'), bytes, reading: reader.reading() };
}
