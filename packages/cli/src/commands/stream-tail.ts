import { readRegularFileTail } from '@statecraft/adapter';

/** How much of the kept stream's end is read: the attempt's last words and its result are near its end. */
const TAIL_BYTES = 256 * 1024;

/** One event of the kept stream, as parsed: statecraft's protocol, its fields unchecked. */
export interface TailEvent {
  type?: unknown;
  kind?: unknown;
  seq?: unknown;
  detail?: unknown;
  terminal?: unknown;
  claim?: unknown;
}

/**
 * The events at the end of the kept stream, in order, read with one bounded read of the file already
 * written (so `run` and `run show` read the same bytes). A line that is not JSON is skipped.
 * Unreadable or absent: none.
 */
export function readStreamTail(stream: { path: string } | 'not-recorded'): TailEvent[] {
  if (stream === 'not-recorded') return [];
  let tail: Buffer;
  try {
    tail = readRegularFileTail(stream.path, TAIL_BYTES);
  } catch {
    return [];
  }
  const lines = tail.toString('utf8').split('\n');
  // A tail that starts mid-file starts mid-line: that piece is no event, whatever it parses as.
  if (tail.length === TAIL_BYTES) lines.shift();
  return lines.flatMap((line): TailEvent[] => {
    try {
      const event: unknown = JSON.parse(line);
      return typeof event === 'object' && event !== null ? [event] : [];
    } catch {
      return [];
    }
  });
}
