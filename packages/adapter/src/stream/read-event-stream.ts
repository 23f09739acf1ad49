import { EventStreamReader } from './event-stream-reader.js';
import type { ReadEventStreamOptions, StreamReading } from './event-stream-reader.js';

/**
 * Reads an NDJSON event stream to its end (R7.4, R7.5): the trusted prefix up to the first bad
 * line or the terminal event, the diagnostic in precedence order (malformed > read-failure >
 * no-result), and counts. A source that throws is a read failure, reported, never rethrown; an
 * `onEvent` callback that throws is the caller's own failure and propagates.
 */
export async function readEventStream(source: AsyncIterable<Uint8Array>, options: ReadEventStreamOptions = {}): Promise<StreamReading> {
  const reader = new EventStreamReader(options);
  const chunks = source[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<Uint8Array>;
    try {
      next = await chunks.next();
    } catch (error) {
      reader.fail(error);
      break;
    }
    if (next.done === true) {
      reader.end();
      break;
    }
    try {
      reader.push(next.value);
    } catch (error) {
      // The callback failed, not the stream: let the source release what it holds, then rethrow.
      await chunks.return?.();
      throw error;
    }
  }
  return reader.reading();
}
