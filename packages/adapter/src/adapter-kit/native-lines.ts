import type { Readable } from 'node:stream';
import { LineSplitter } from '../stream/line-splitter.js';
import type { SplitLine } from '../stream/line-splitter.js';

/**
 * The longest native line the adapter reads whole: eight times the supervisor's own line bound,
 * since a large tool result is summarised rather than passed on (the mapper cuts progress above
 * 256 KiB), and small enough that holding one such line keeps the adapter's memory bounded (R7.5).
 */
export const MAX_NATIVE_LINE_BYTES = 8 * 1024 * 1024;

/**
 * Splits a provider's stdout into lines as bytes, not text: a lenient decode would replace invalid
 * UTF-8 with U+FFFD and silently alter the evidence (R7.5 read failure). The seam's splitter
 * does the splitting, so a final line without a newline is still a line, CRLF is tolerated, and
 * a line longer than the bound is handed on `oversize` (its first bytes kept as evidence) the
 * moment it crosses the bound: a provider writing a line without end grows nothing here.
 */
export async function* nativeLines(stream: Readable, maxLineBytes = MAX_NATIVE_LINE_BYTES): AsyncGenerator<SplitLine> {
  const ready: SplitLine[] = [];
  const splitter = new LineSplitter(maxLineBytes, (line) => ready.push(line));
  for await (const chunk of stream) {
    splitter.push(chunk as Buffer);
    splitter.cutOversizeLine();
    yield* ready.splice(0);
  }
  splitter.end();
  yield* ready.splice(0);
}
