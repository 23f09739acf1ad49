import { isUtf8 } from 'node:buffer';
import type { Readable } from 'node:stream';
import type { EventWriter } from './event-writer.js';
import { MAX_NATIVE_LINE_BYTES, nativeLines } from './native-lines.js';

/**
 * One line of the provider's stdout: text to map, or a defect the adapter cannot stand behind
 * (R7.5), which it passes on (`write`) once it has stopped the provider.
 */
export type ProviderLine = { kind: 'text'; lineNumber: number; line: string } | { kind: 'defect'; lineNumber: number; write(writer: EventWriter): void };

/** The provider's stdout as numbered text lines, a line too long or not UTF-8 given as its defect. */
export async function* providerLines(stdout: Readable): AsyncGenerator<ProviderLine> {
  let lineNumber = 0;
  for await (const { bytes, lineBytes, oversize } of nativeLines(stdout)) {
    lineNumber += 1;
    const at = lineNumber;
    if (oversize) {
      // Only the line's first bytes were kept; the adapter cannot stand behind any of it (R7.5).
      yield {
        kind: 'defect',
        lineNumber: at,
        write: (writer) => writer.writeMalformed(at, `longer than ${MAX_NATIVE_LINE_BYTES} bytes (${lineBytes} read)`, bytes.toString('utf8')),
      };
    } else if (!isUtf8(bytes)) {
      // Passed on as the same defect, so the supervisor reports a read failure (R7.5).
      yield { kind: 'defect', lineNumber: at, write: (writer) => writer.writeUnreadable(at, bytes) };
    } else yield { kind: 'text', lineNumber: at, line: bytes.toString('utf8') };
  }
}
