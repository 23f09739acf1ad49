import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { ChainRecordSchema, type ChainRecord } from './record-schemas.js';

/** One verified line of the chain. */
export interface ChainEntry {
  record: ChainRecord;
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

export type ChainOpening =
  | {
      kind: 'opened';
      path: string;
      entries: ChainEntry[];
      /** The last line's sha256, or `genesis` for an empty chain. */
      head: string;
      nextSeq: number;
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
export async function openChain(path: string): Promise<ChainOpening> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { kind: 'opened', path, entries: [], head: 'genesis', nextSeq: 0, torn: 'none' };
    }
    return { kind: 'unreadable', path, message: `${path}: cannot read the record chain (${(error as Error).message})` };
  }
  const entries: ChainEntry[] = [];
  let head = 'genesis';
  let start = 0;
  for (let end = bytes.indexOf(NEWLINE, start); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
    const lineNumber = entries.length + 1;
    const line = bytes.subarray(start, end);
    const verdict = verifyLine(path, line, lineNumber, head, entries.at(-1));
    if (verdict.kind === 'broken') return verdict;
    entries.push(verdict.entry);
    head = verdict.entry.digest;
    start = end + 1;
  }
  const torn: 'none' | TornTail =
    start < bytes.length
      ? { offset: start, bytes: bytes.length - start, sha256: createHash('sha256').update(bytes.subarray(start)).digest('hex') }
      : 'none';
  return { kind: 'opened', path, entries, head, nextSeq: entries.length, torn };
}

type LineVerdict = { kind: 'verified'; entry: ChainEntry } | Extract<ChainOpening, { kind: 'broken' }>;

function verifyLine(path: string, line: Buffer, lineNumber: number, expectedPrev: string, previous: ChainEntry | undefined): LineVerdict {
  const broken = (reason: Extract<ChainOpening, { kind: 'broken' }>['reason'], what: string): LineVerdict => ({
    kind: 'broken',
    path,
    lineNumber,
    reason,
    message: `${path}: ${what}; the chain is refused as corrupt and nothing was repaired`,
  });
  if (line.length === 0) return broken('empty-line', `line ${lineNumber} is empty`);
  let json: unknown;
  try {
    json = JSON.parse(line.toString('utf8'));
  } catch {
    return broken('not-json', `record at line ${lineNumber} does not parse as JSON (altered or corrupted)`);
  }
  const parsed = ChainRecordSchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const field = first === undefined ? '' : ` (field "${first.path.join('.')}": ${first.message})`;
    return broken('not-a-record', `record at line ${lineNumber} is not a valid chain record${field}`);
  }
  const record = parsed.data;
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
  return { kind: 'verified', entry: { record, digest: createHash('sha256').update(line).digest('hex'), lineNumber } };
}

/** `intent of run <id> attempt <n>`: how a record is named in messages. */
export function describeRecord(record: ChainRecord): string {
  return `${record.kind} of run ${record.runId} attempt ${record.attempt}`;
}
