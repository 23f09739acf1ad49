import { createHash } from 'node:crypto';
import * as z from 'zod';
import { CountSchema, SizedDigestSchema } from '../schema-pieces.js';
import { RefusalEventSchema, type RefusalEvent } from '../protocol/events.js';
import { ProtocolVersionSchema } from '../protocol/version.js';

/**
 * What the supervisor keeps of the refusal events it reads (R1.4, R7.5): a count, a running
 * sha256 over their lines, and the first few — never all of them. An adapter can write hundreds of
 * MiB of valid refusals; holding them would grow the supervisor and the chain without bound.
 * Every refusal stays in the stream kept beside the chain (R8.4), where the digest
 * lets a reader check that the lines it finds are the ones that were counted.
 */

/** How many refusals the excerpt keeps: enough to read what was refused; the rest are in the kept stream. */
export const REFUSAL_EXCERPT_COUNT = 8;

/** A refusal line up to this many bytes is kept whole in the excerpt; a longer one is cut to this. */
export const REFUSAL_EXCERPT_LINE_BYTES = 4096;

/** A refusal whose line was too long for the excerpt: its place in the stream and the line's first bytes. */
const CutRefusalSchema = z.strictObject({
  type: z.literal('refusal'),
  protocol: ProtocolVersionSchema,
  /** The stream line is `seq + 1`: the trusted prefix has one event a line from the init at seq 0. */
  seq: CountSchema,
  cut: z.strictObject({
    /** The whole line's length in bytes, without its terminator. */
    lineBytes: z.int().positive(),
    /** The line's first bytes, cut at a character boundary: evidence, not an event. */
    head: z.string().max(REFUSAL_EXCERPT_LINE_BYTES),
  }),
});

/** One refusal of the excerpt: the event verbatim, or cut when its line was long. */
export const RefusalExcerptEntrySchema = z.union([RefusalEventSchema, CutRefusalSchema]);
export type RefusalExcerptEntry = z.infer<typeof RefusalExcerptEntrySchema>;

/**
 * sha256 over every refusal line of the trusted prefix, in order, each as read (without its `\n`
 * or `\r\n`) followed by one `\n`; `bytes` is the length of what was digested. For a stream with
 * `\n` line ends it is the digest of its refusal lines cut out whole.
 */
export const RefusalDigestSchema = SizedDigestSchema;
export type RefusalDigest = z.infer<typeof RefusalDigestSchema>;

export const RefusalTallySchema = z.strictObject({
  count: CountSchema,
  digest: RefusalDigestSchema,
  /** The first refusals, in stream order. */
  excerpt: z.array(RefusalExcerptEntrySchema).max(REFUSAL_EXCERPT_COUNT),
});
export type RefusalTallyReading = z.infer<typeof RefusalTallySchema>;

const NEWLINE = Buffer.from('\n');

/** Counts, digests and excerpts refusal events as they are read; its memory does not grow with them. */
export class RefusalTally {
  private count = 0;
  private bytes = 0;
  private readonly hash = createHash('sha256');
  private readonly excerpt: RefusalExcerptEntry[] = [];

  /** `line`: the refusal's line as read, without its terminator. */
  add(event: RefusalEvent, line: Buffer): void {
    this.count += 1;
    this.hash.update(line);
    this.hash.update(NEWLINE);
    this.bytes += line.length + 1;
    if (this.excerpt.length < REFUSAL_EXCERPT_COUNT) this.excerpt.push(excerptOf(event, line));
  }

  /** What was tallied so far; the tally may go on (the deadline can take a reading mid-stream). */
  reading(): RefusalTallyReading {
    return {
      count: this.count,
      digest: { sha256: this.hash.copy().digest('hex'), bytes: this.bytes },
      excerpt: [...this.excerpt],
    };
  }
}

function excerptOf(event: RefusalEvent, line: Buffer): RefusalExcerptEntry {
  if (line.length <= REFUSAL_EXCERPT_LINE_BYTES) return event;
  return {
    type: 'refusal',
    protocol: event.protocol,
    seq: event.seq,
    cut: { lineBytes: line.length, head: characterBoundaryHead(line, REFUSAL_EXCERPT_LINE_BYTES) },
  };
}

/** The first bytes of valid UTF-8, never ending inside a character (a continuation byte is 10xxxxxx). */
function characterBoundaryHead(line: Buffer, maxBytes: number): string {
  let end = Math.min(maxBytes, line.length);
  while (end > 0 && end < line.length && ((line[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  return line.subarray(0, end).toString('utf8');
}
