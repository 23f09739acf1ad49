import { EventSchema } from '../protocol/events.js';
import { PROTOCOL_VERSION } from '../protocol/version.js';
import type { EventDraft } from './event-draft.js';

/**
 * Writes protocol events to stdout as NDJSON, stamping `protocol` and a rising `seq` (R1.2).
 * Each event is checked against the seam's schema first: an adapter bug must not reach the
 * supervisor as a plausible event. On Linux, stdout to a pipe or file is written synchronously, so a signal cannot cut a line in half.
 */
export class EventWriter {
  private seq = 0;

  /** `write` defaults to stdout; a test may collect the lines instead. */
  constructor(private readonly output: (bytes: string | Buffer) => void = (bytes) => process.stdout.write(bytes)) {}

  write(draft: EventDraft): void {
    const event = EventSchema.parse({ ...draft, protocol: PROTOCOL_VERSION, seq: this.seq });
    this.seq += 1;
    this.output(`${JSON.stringify(event)}\n`);
  }

  get written(): number {
    return this.seq;
  }

  /**
   * A provider line the adapter cannot stand behind ends its stream with a line that is
   * deliberately not JSON, so the supervisor's own reader reports the stream `malformed` and
   * keeps the line (R7.5); the offending native line is quoted, cut at 4 KiB.
   */
  writeMalformed(nativeLineNumber: number, reason: string, line: string): void {
    const excerpt = line.length > 4096 ? `${line.slice(0, 4096)}…` : line;
    this.output(`malformed provider stream: native line ${nativeLineNumber}: ${reason}: ${excerpt.replace(/[\r\n]/g, ' ')}\n`);
  }

  /**
   * A provider line that is not valid UTF-8 is passed on with its bytes (cut at 512 KiB, under
   * the supervisor's line limit), so the supervisor's reader reports a read failure (R7.5).
   */
  writeUnreadable(nativeLineNumber: number, bytes: Buffer): void {
    const prefix = Buffer.from(`unreadable provider stream: native line ${nativeLineNumber} is not UTF-8: `, 'utf8');
    this.output(Buffer.concat([prefix, bytes.subarray(0, 512 * 1024), Buffer.from('\n')]));
  }
}
