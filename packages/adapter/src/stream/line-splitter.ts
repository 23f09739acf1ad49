/**
 * Splits a byte stream into lines without ever holding more than one bounded line (R7.5).
 *
 * Why not the `ndjson` package: it splits with `split2`, which buffers a whole line before it can
 * measure it, so an adapter writing one endless line would grow the supervisor's memory without
 * bound. Here a line longer than the bound stops being buffered the moment it crosses it; only its
 * first bytes are kept as evidence and the rest is counted, not stored.
 */

/** Lines longer than this are malformed unless the caller says otherwise (R7.5). */
export const DEFAULT_MAX_LINE_BYTES = 1024 * 1024;

/** How much of an oversize line is kept as evidence. */
export const OVERSIZE_EVIDENCE_BYTES = 4096;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export interface SplitLine {
  /** The line's bytes without its terminator (`\n` or `\r\n`); cut to the evidence cap when oversize. */
  bytes: Buffer;
  /** The line's full length in bytes without its terminator, however much of it was kept. */
  lineBytes: number;
  oversize: boolean;
}

export class LineSplitter {
  /** Pieces of the line being read; their total never exceeds `maxLineBytes + 1`. */
  private pieces: Buffer[] = [];
  private pieceBytes = 0;
  /** Bytes of the current line seen so far, including any that were not kept. */
  private seenBytes = 0;
  private oversize = false;
  private lastByteWasCarriageReturn = false;
  /** When set, lines are only measured: nothing is kept (used after the trusted prefix ends). */
  countOnly = false;

  constructor(
    private readonly maxLineBytes: number,
    private readonly onLine: (line: SplitLine) => void,
  ) {}

  /** Feeds one chunk; calls `onLine` for every line the chunk completes, in order. */
  push(chunk: Uint8Array): void {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    // Buffer.indexOf is native; a per-byte loop in JS would cap throughput well below 100 MB/s.
    for (let newline = buffer.indexOf(NEWLINE, start); newline !== -1; newline = buffer.indexOf(NEWLINE, start)) {
      if (this.seenBytes === 0 && !this.countOnly && newline - start <= this.maxLineBytes + 1) {
        // The common case: the whole line lies inside this chunk, so it is handed on without a copy.
        this.emitWhole(buffer, start, newline);
      } else {
        this.take(buffer, start, newline);
        this.emit();
      }
      start = newline + 1;
    }
    if (start < buffer.length) this.take(buffer, start, buffer.length);
  }

  /** The stream ended: a final line without a newline is still a line. */
  end(): void {
    if (this.seenBytes > 0) this.emit();
  }

  /**
   * Hands on the unfinished line now if it has already crossed the bound: its evidence is all
   * kept, and a writer that never ends the line must not keep the reader waiting for its end.
   * Bytes read after this start a new line.
   */
  cutOversizeLine(): void {
    if (this.oversize) this.emit();
  }

  /** Bytes of an unfinished line are waiting (the stream stopped mid-line). */
  get hasPartialLine(): boolean {
    return this.seenBytes > 0;
  }

  private take(buffer: Buffer, from: number, to: number): void {
    if (to === from) return;
    this.seenBytes += to - from;
    this.lastByteWasCarriageReturn = buffer[to - 1] === CARRIAGE_RETURN;
    if (this.countOnly) return;
    // One byte of slack: a line of exactly maxLineBytes may still be followed by the `\r` of a CRLF.
    const room = (this.oversize ? OVERSIZE_EVIDENCE_BYTES : this.maxLineBytes + 1) - this.pieceBytes;
    if (to - from <= room) {
      this.keep(buffer.subarray(from, to));
      return;
    }
    if (!this.oversize) this.becomeOversize();
    const evidenceRoom = OVERSIZE_EVIDENCE_BYTES - this.pieceBytes;
    if (evidenceRoom > 0) this.keep(buffer.subarray(from, Math.min(to, from + evidenceRoom)));
  }

  private keep(piece: Buffer): void {
    // Copied so a kept piece does not pin the whole chunk it came from.
    this.pieces.push(Buffer.from(piece));
    this.pieceBytes += piece.length;
  }

  /** Drops what was kept beyond the evidence cap; from here on the line is only counted. */
  private becomeOversize(): void {
    this.oversize = true;
    if (this.pieceBytes > OVERSIZE_EVIDENCE_BYTES) {
      const kept = Buffer.concat(this.pieces, this.pieceBytes).subarray(0, OVERSIZE_EVIDENCE_BYTES);
      this.pieces = [Buffer.from(kept)];
      this.pieceBytes = kept.length;
    }
  }

  private emitWhole(buffer: Buffer, from: number, to: number): void {
    const terminatorSlack = to > from && buffer[to - 1] === CARRIAGE_RETURN ? 1 : 0;
    const lineBytes = to - from - terminatorSlack;
    const oversize = lineBytes > this.maxLineBytes;
    const end = oversize ? from + Math.min(OVERSIZE_EVIDENCE_BYTES, lineBytes) : to - terminatorSlack;
    this.onLine({ bytes: buffer.subarray(from, end), lineBytes, oversize });
  }

  private emit(): void {
    const terminatorSlack = this.lastByteWasCarriageReturn ? 1 : 0;
    const lineBytes = this.seenBytes - terminatorSlack;
    const oversize = this.oversize || lineBytes > this.maxLineBytes;
    let bytes = this.pieces.length === 1 ? (this.pieces[0] as Buffer) : Buffer.concat(this.pieces, this.pieceBytes);
    if (!oversize && terminatorSlack === 1) bytes = bytes.subarray(0, bytes.length - 1);
    if (oversize && bytes.length > OVERSIZE_EVIDENCE_BYTES) bytes = bytes.subarray(0, OVERSIZE_EVIDENCE_BYTES);
    this.pieces = [];
    this.pieceBytes = 0;
    this.seenBytes = 0;
    this.oversize = false;
    this.lastByteWasCarriageReturn = false;
    this.onLine({ bytes, lineBytes, oversize });
  }
}
