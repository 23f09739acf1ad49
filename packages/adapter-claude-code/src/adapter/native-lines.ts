import type { Readable } from 'node:stream';

/**
 * Splits claude's stdout into lines as bytes, not text: a lenient decode would replace invalid
 * UTF-8 with U+FFFD and silently alter the evidence (R7.5 read failure). A final line without
 * a newline is still a line; CRLF is tolerated.
 */
export async function* nativeLines(stream: Readable): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  for await (const chunk of stream) {
    let data = chunk as Buffer;
    let newline = data.indexOf(0x0a);
    while (newline !== -1) {
      pending.push(data.subarray(0, newline));
      yield trimCarriageReturn(Buffer.concat(pending));
      pending = [];
      data = data.subarray(newline + 1);
      newline = data.indexOf(0x0a);
    }
    if (data.length > 0) pending.push(data);
  }
  if (pending.length > 0) yield trimCarriageReturn(Buffer.concat(pending));
}

function trimCarriageReturn(line: Buffer): Buffer {
  return line.length > 0 && line[line.length - 1] === 0x0d ? line.subarray(0, -1) : line;
}
