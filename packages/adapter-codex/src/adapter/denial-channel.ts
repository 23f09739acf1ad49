import { closeSync, openSync, readSync } from 'node:fs';
import { DenialSchema } from './denial-record.js';
import type { ChannelEntry } from './denial-record.js';

/**
 * The adapter's reading end of the denial channel: the private file the hook appends to. Read
 * incrementally (only whole lines, from where the last read stopped), so each denial becomes a
 * refusal exactly once, whenever it is read (denial-watch.ts). A line that does not parse is
 * kept as a refusal with what could be read: a denial is never dropped for being malformed.
 */
export class DenialChannel {
  private offset = 0;
  private partial = Buffer.alloc(0);

  constructor(readonly path: string) {}

  /** How many bytes of the channel the reads so far have handed on: whole lines only. */
  get bytesRead(): number {
    return this.offset - this.partial.length;
  }

  drain(): ChannelEntry[] {
    let fd: number;
    try {
      fd = openSync(this.path, 'r');
    } catch {
      return []; // No denial yet: the hook creates the file on its first.
    }
    const chunks: Buffer[] = [this.partial];
    try {
      const buffer = Buffer.alloc(64 * 1024);
      for (;;) {
        const read = readSync(fd, buffer, 0, buffer.length, this.offset);
        if (read === 0) break;
        chunks.push(Buffer.from(buffer.subarray(0, read)));
        this.offset += read;
      }
    } finally {
      closeSync(fd);
    }
    const bytes = Buffer.concat(chunks);
    const end = bytes.lastIndexOf(0x0a);
    this.partial = end === -1 ? bytes : bytes.subarray(end + 1);
    if (end === -1) return [];
    return bytes
      .subarray(0, end)
      .toString('utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => {
        try {
          const parsed = DenialSchema.safeParse(JSON.parse(line));
          if (parsed.success) return parsed.data;
        } catch {
          // fall through
        }
        return { source: 'statecraft-pre-tool-use-hook' as const, unreadable: line };
      });
  }
}
