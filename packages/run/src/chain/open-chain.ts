import { readFile } from 'node:fs/promises';
import { sha256Hex } from '@statecraft/adapter';
import { ChainRecordSchema, type ChainRecord } from './record-schemas.js';

/** What every reading of a record needs: its link and its name. */
export interface LinkedRecord {
  prev: string;
  seq: number;
  kind: string;
  runId: string;
  attempt: number;
}

/** One verified line of the chain. */
export interface ChainEntry<R extends LinkedRecord = ChainRecord> {
  record: R;
  /** sha256 of the line's exact bytes: what the next record's `prev` must carry. */
  digest: string;
  /** 1-based. */
  lineNumber: number;
}

/** A final line with no newline: an append that never finished, so it was never acknowledged. */
export interface TornTail {
  offset: number;
  bytes: number;
  sha256: string;
}

export type ChainOpening<R extends LinkedRecord = ChainRecord> =
  | {
      kind: 'opened';
      path: string;
      entries: ChainEntry<R>[];
      /** The last line's sha256, or `genesis` for an empty chain. */
      head: string;
      nextSeq: number;
      /** Bytes of the complete lines: where the next record starts, once a torn tail is cut. */
      length: number;
      torn: 'none' | TornTail;
    }
  | {
      kind: 'broken';
      path: string;
      lineNumber: number;
      reason: 'empty-line' | 'not-json' | 'not-a-record' | 'out-of-sequence' | 'broken-link';
      /** Names the record and says nothing was repaired. */
      message: string;
    }
  | { kind: 'unreadable'; path: string; message: string };

const NEWLINE = 0x0a;

/**
 * Opens a chain read-only and verifies every link (R8.4). A torn final line is reported, not
 * fixed here (the next append truncates it); any other damage is corruption: refused, naming
 * the record, never repaired. A missing chain is an empty chain.
 */
export function openChain(path: string): Promise<ChainOpening> {
  return verifyChainWith(path, readWholeRecord);
}

/** How one line's bytes are read into a record (whole, or only its leading fields). */
export type LineReading<R> = { kind: 'read'; record: R } | { kind: 'not-json' } | { kind: 'not-a-record'; detail: string };

/**
 * Reads one line. `isLast`: the chain's final complete line — the one record no later link
 * vouches for, so a reader that skims the others must read it whole.
 */
export type LineReader<R> = (line: Buffer, isLast: boolean) => LineReading<R>;

export function readWholeRecord(line: Buffer): LineReading<ChainRecord> {
  let json: unknown;
  try {
    json = JSON.parse(line.toString('utf8'));
  } catch {
    return { kind: 'not-json' };
  }
  const parsed = ChainRecordSchema.safeParse(json);
  if (parsed.success) return { kind: 'read', record: parsed.data };
  const first = parsed.error.issues[0];
  return { kind: 'not-a-record', detail: first === undefined ? 'invalid' : `field "${first.path.join('.')}": ${first.message}` };
}

/**
 * Verifies every link of a chain — each record's `prev` against the sha256 of the previous
 * line's exact bytes — reading each record with the given reader. Every link is checked
 * whichever reader is used.
 */
export async function verifyChainWith<R extends LinkedRecord>(path: string, read: LineReader<R>): Promise<ChainOpening<R>> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { kind: 'opened', path, entries: [], head: 'genesis', nextSeq: 0, length: 0, torn: 'none' };
    }
    return { kind: 'unreadable', path, message: `${path}: cannot read the record chain (${(error as Error).message})` };
  }
  const entries: ChainEntry<R>[] = [];
  let head = 'genesis';
  let start = 0;
  for (let end = bytes.indexOf(NEWLINE, start); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
    const lineNumber = entries.length + 1;
    const line = bytes.subarray(start, end);
    const isLast = bytes.indexOf(NEWLINE, end + 1) === -1;
    const verdict = verifyLine(path, (bytesOfLine) => read(bytesOfLine, isLast), line, lineNumber, head, entries.at(-1));
    if (verdict.kind === 'broken') return verdict;
    entries.push(verdict.entry);
    head = verdict.entry.digest;
    start = end + 1;
  }
  const torn: 'none' | TornTail =
    start < bytes.length
      ? { offset: start, bytes: bytes.length - start, sha256: sha256Hex(bytes.subarray(start)) }
      : 'none';
  return { kind: 'opened', path, entries, head, nextSeq: entries.length, length: start, torn };
}

type Broken = Extract<ChainOpening, { kind: 'broken' }>;
type LineVerdict<R extends LinkedRecord> = { kind: 'verified'; entry: ChainEntry<R> } | Broken;

function verifyLine<R extends LinkedRecord>(
  path: string,
  read: (line: Buffer) => LineReading<R>,
  line: Buffer,
  lineNumber: number,
  expectedPrev: string,
  previous: ChainEntry<R> | undefined,
): LineVerdict<R> {
  const broken = (reason: Broken['reason'], what: string): Broken => ({
    kind: 'broken',
    path,
    lineNumber,
    reason,
    message: `${path}: ${what}; the chain is refused as corrupt and nothing was repaired`,
  });
  if (line.length === 0) return broken('empty-line', `line ${lineNumber} is empty`);
  const reading = read(line);
  if (reading.kind === 'not-json') return broken('not-json', `record at line ${lineNumber} does not parse as JSON (altered or corrupted)`);
  if (reading.kind === 'not-a-record') return broken('not-a-record', `record at line ${lineNumber} is not a valid chain record (${reading.detail})`);
  const record = reading.record;
  if (record.seq !== lineNumber - 1) {
    return broken('out-of-sequence', `record at line ${lineNumber} carries seq ${record.seq}, expected ${lineNumber - 1}`);
  }
  if (record.prev !== expectedPrev) {
    const earlier = previous === undefined ? 'the chain start' : `record at line ${previous.lineNumber} (${describeRecord(previous.record)})`;
    return broken(
      'broken-link',
      `broken link: ${earlier} no longer matches the digest carried by record at line ${lineNumber} (${describeRecord(record)}); one of them was altered`,
    );
  }
  return { kind: 'verified', entry: { record, digest: sha256Hex(line), lineNumber } };
}

/** `intent of run <id> attempt <n>`: how a record is named in messages. */
export function describeRecord(record: LinkedRecord): string {
  return `${record.kind} of run ${record.runId} attempt ${record.attempt}`;
}
