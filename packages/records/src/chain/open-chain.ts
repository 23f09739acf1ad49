import type { FileHandle } from 'node:fs/promises';
import { openRegularFile } from '@statecraft/adapter';
import { digesterFor, sha256Of, type LineDigester } from './digest-lines.js';
import { readChainBatches, type LineBatch, type LinesRead } from './read-chain-lines.js';
import { MAX_RECORD_BYTES } from './record-bound.js';
import { ChainRecordSchema, type ChainRecord } from './record-schemas.js';
import type { WorkerBatchReading, WorkerReadingSetup } from './summary-reading-on-worker.js';

/** What every reading of a record needs: its link and its name. */
export interface LinkedRecord {
  prev: string;
  seq: number;
  kind: string;
  /** Absent only from a record that names no run (a prune); `attempt` also from one that names a whole run (a selection). */
  runId?: string;
  attempt?: number;
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
      reason: 'empty-line' | 'not-json' | 'not-a-record' | 'out-of-sequence' | 'broken-link' | 'cut-after-verified' | 'overlong-line';
      /** Names the record and says nothing was repaired. */
      message: string;
    }
  | { kind: 'unreadable'; path: string; message: string };

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
 * Where verification starts: the chain's beginning, or a verified point inside it (a checkpoint,
 * chain-checkpoint.ts) whose line has just been read and hashed.
 */
export interface ChainStart {
  /** Byte offset of the first line to verify: just past a newline. */
  offset: number;
  /** The digest the first verified line's `prev` must carry: `genesis` at the beginning. */
  head: string;
  /** The seq the first verified line must carry. */
  nextSeq: number;
  /** The record before `offset`, to name it if the first link is broken. */
  previous: 'none' | { lineNumber: number; record: LinkedRecord };
}

const CHAIN_BEGINNING: ChainStart = { offset: 0, head: 'genesis', nextSeq: 0, previous: 'none' };

export interface VerifyOptions<R extends LinkedRecord = LinkedRecord> {
  /** Start past a verified point instead of at the beginning; nothing before it is read. */
  from?: ChainStart;
  /** Keep every entry (readers that list or fold records), or none (an append needs only the tip). */
  entries?: 'keep' | 'none';
  /**
   * Each verified entry, in order, as soon as its link is checked: a reader that folds records as
   * they come keeps what it folds, not every entry. A later break still refuses the whole chain.
   */
  onEntry?: (entry: ChainEntry<R>) => void;
  /**
   * A reading the hashing worker can share (long readings only): the worker reads every other
   * batch's lines as far as it is certain of them, and `rebuild` makes its records from what it
   * sends back. Lines it stops at are read here with `read`, as any other.
   */
  onWorker?: { setup: WorkerReadingSetup; rebuild: (reading: WorkerBatchReading) => R[] };
}

/**
 * Verifies every link of a chain — each record's `prev` against the sha256 of the previous
 * line's exact bytes — reading each record with the given reader. Every link is checked
 * whichever reader is used. The file is read in batches (read-chain-lines.ts), so memory does not
 * grow with the chain beyond the entries kept. A batch's lines are hashed (digest-lines.ts, on a
 * worker for long chains) while its records are read; its links are checked once both are done,
 * line by line, so the first damaged line is the one named, whichever check finds it.
 */
export async function verifyChainWith<R extends LinkedRecord>(path: string, read: LineReader<R>, options: VerifyOptions<R> = {}): Promise<ChainOpening<R>> {
  const from = options.from ?? CHAIN_BEGINNING;
  let handle: FileHandle;
  try {
    handle = await openRegularFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && from.offset === 0) {
      return { kind: 'opened', path, entries: [], head: 'genesis', nextSeq: 0, length: 0, torn: 'none' };
    }
    return { kind: 'unreadable', path, message: `${path}: cannot read the record chain (${(error as Error).message})` };
  }
  const links = new LinkChecker<R>(path, from, options.entries !== 'none', options.onEntry);
  let digester: LineDigester | undefined;
  let lines: LinesRead | undefined;
  try {
    digester = digesterFor((await handle.stat()).size - from.offset, options.onWorker?.setup);
    const sharing =
      options.onWorker !== undefined && digester.digestAndRead !== undefined && digester.finished !== undefined
        ? { share: new ReadingShare(digester.finished), digestAndRead: digester.digestAndRead, rebuild: options.onWorker.rebuild }
        : undefined;
    // Shared, a batch is read here one batch after it is sent (below): one buffer more holds it.
    const batches = readChainBatches(handle, from.offset, digester.allocate, sharing === undefined ? 3 : 4);
    // The batch read before this one: its links are checked once this one's records are read.
    let previous: Promise<Broken | undefined> | undefined;
    // Shared: the batch sent to the worker whose lines this thread has yet to read.
    let sent: SentBatch | undefined;
    /**
     * This thread's part of a batch the worker has: its lines past the worker's, then, once the
     * batch before is checked, this one's check, queued. `stopped`: a line could not be read.
     */
    const readSent = async (
      { batch, workerLines, reading }: SentBatch,
      share: ReadingShare,
      rebuild: (reading: WorkerBatchReading) => R[],
    ): Promise<Broken | 'read' | 'stopped'> => {
      const readings = readBatch(batch, read, workerLines, batch.starts.length);
      share.weigh();
      const broken = await previous;
      if (broken !== undefined) return broken;
      previous = reading.then((answer) => links.checkRead(batch, answer, rebuild(answer), read, workerLines, readings));
      // Awaited on the next turn or below; marked handled so a failure is not fatal meanwhile.
      previous.catch(() => undefined);
      return workerLines + readings.length === batch.starts.length ? 'read' : 'stopped';
    };
    while (true) {
      const step = await batches.next();
      if (step.done === true) {
        lines = step.value;
        break;
      }
      const batch = step.value;
      // A worker that can read takes the batch's first lines, this thread the rest: hashing alone
      // left it idle most of the time (decision 0023). Each batch is sent as soon
      // as it is read, and this thread reads its lines of the batch before, so the worker has the
      // next batch waiting whenever it finishes one, whatever pauses this thread (a collection, a
      // part of the answer rendered).
      if (sharing !== undefined) {
        const workerLines = sharing.share.linesFor(batch.starts.length);
        const before = sent;
        const reading = sharing.digestAndRead(batch, workerLines);
        // Chained only once this thread reads the batch: marked handled so a failure meanwhile is not fatal.
        reading.catch(() => undefined);
        sent = { batch, workerLines, reading };
        if (before === undefined) continue;
        const done = await readSent(before, sharing.share, sharing.rebuild);
        if (done === 'read') continue;
        // A line that could not be read ends the reading; the lines before it are still checked first.
        if (done === 'stopped') break;
        return done;
      }
      const digests = digester.digest(batch);
      const readings = readBatch(batch, read, 0, batch.starts.length);
      const broken = await previous;
      if (broken !== undefined) return broken;
      previous = digests.then((digested) => links.check(readings, digested));
      // Awaited on the next turn or below; marked handled so a failure is not fatal meanwhile.
      previous.catch(() => undefined);
      // A line that could not be read ends the reading; the lines before it are still checked first.
      if (readings.length < batch.starts.length) break;
    }
    // The last batch sent, once the file has ended: its lines are read here now.
    if (sent !== undefined && sharing !== undefined && lines !== undefined) {
      const done = await readSent(sent, sharing.share, sharing.rebuild);
      if (done !== 'read' && done !== 'stopped') return done;
    }
    const broken = await previous;
    if (broken !== undefined) return broken;
  } catch (error) {
    return { kind: 'unreadable', path, message: `${path}: cannot read the record chain (${(error as Error).message})` };
  } finally {
    await digester?.close();
    await handle.close();
  }
  // Only a batch ending on a line that could not be read stops early, and checking it refuses.
  if (lines === undefined) throw new Error(`${path}: the chain reading stopped on a line it did not refuse`);
  if (lines.overlongAt !== undefined) return links.overlong(lines.overlongAt);
  const torn: 'none' | TornTail = lines.rest.length > 0 ? { offset: lines.end, bytes: lines.rest.length, sha256: sha256Of(lines.rest) } : 'none';
  return { kind: 'opened', path, entries: links.entries, head: links.head, nextSeq: links.nextSeq, length: lines.end, torn };
}

export { sha256Of } from './digest-lines.js';

type Broken = Extract<ChainOpening, { kind: 'broken' }>;

/** A batch sent to the hashing worker, with how many of its first lines the worker reads. */
interface SentBatch {
  batch: LineBatch;
  workerLines: number;
  reading: Promise<WorkerBatchReading>;
}

/** The lines `[from, until)` of a batch, up to and including the first that cannot be read: an empty line is one. */
function readBatch<R>(batch: LineBatch, read: LineReader<R>, from: number, until: number): (LineReading<R> | { kind: 'empty' })[] {
  const { bytes, starts, ends, endsFile } = batch;
  const readings: (LineReading<R> | { kind: 'empty' })[] = [];
  for (let index = from; index < until; index += 1) {
    const reading =
      starts[index] === ends[index] ? { kind: 'empty' as const } : read(bytes.subarray(starts[index], ends[index]), endsFile && index === starts.length - 1);
    readings.push(reading);
    if (reading.kind !== 'read') break;
  }
  return readings;
}

/**
 * How many of a batch's lines the worker reads: a share moved after every batch toward the
 * thread that waited, so neither idles while the other works, whatever the cores' load.
 */
class ReadingShare {
  private share = 0.4;
  private sent = 0;

  /** `finished`: how many batches the worker has answered, read from shared memory at once. */
  constructor(private readonly finished: () => number) {}

  linesFor(lines: number): number {
    this.sent += 1;
    return Math.floor(lines * this.share);
  }

  /**
   * Called once this thread has read its lines of a batch (sent one batch before): had the worker
   * already answered that batch, it is ahead of this thread and takes more; if not, less. The
   * worker's answers are counted in shared memory: its messages are seen only when this thread's
   * event loop turns, after the file read it resumes on, so judged by them every answer looked
   * late and the share fell to nothing (decision 0023). Not judged before the
   * worker's first answer: its start-up is no measure of its pace.
   */
  weigh(): void {
    const finished = this.finished();
    if (finished === 0 || this.sent < 3) return;
    this.share = Math.min(0.9, Math.max(0, this.share + (finished >= this.sent - 1 ? 0.02 : -0.02)));
  }
}

/** The chain's running state: the head each next `prev` must carry, and the entries verified. */
class LinkChecker<R extends LinkedRecord> {
  readonly entries: ChainEntry<R>[] = [];
  head: string;
  nextSeq: number;
  private previous: ChainEntry<R> | ChainStart['previous'];

  constructor(
    private readonly path: string,
    from: ChainStart,
    private readonly keep: boolean,
    private readonly onEntry: ((entry: ChainEntry<R>) => void) | undefined,
  ) {
    this.head = from.head;
    this.nextSeq = from.nextSeq;
    this.previous = from.previous;
  }

  /** Checks a batch's lines in order against the running head; the first broken one is returned. */
  check(readings: readonly (LineReading<R> | { kind: 'empty' })[], digests: readonly string[]): Broken | undefined {
    for (let index = 0; index < readings.length; index += 1) {
      const lineNumber = this.nextSeq + 1;
      const reading = readings[index]!;
      if (reading.kind === 'empty') return this.broken(lineNumber, 'empty-line', `line ${lineNumber} is empty`);
      if (reading.kind === 'not-json') return this.broken(lineNumber, 'not-json', `record at line ${lineNumber} does not parse as JSON (altered or corrupted)`);
      if (reading.kind === 'not-a-record')
        return this.broken(lineNumber, 'not-a-record', `record at line ${lineNumber} is not a valid chain record (${reading.detail})`);
      const record = reading.record;
      if (record.seq !== lineNumber - 1) {
        return this.broken(lineNumber, 'out-of-sequence', `record at line ${lineNumber} carries seq ${record.seq}, expected ${lineNumber - 1}`);
      }
      if (record.prev !== this.head) {
        const previous = this.previous;
        const earlier = previous === 'none' ? 'the chain start' : `record at line ${previous.lineNumber} (${describeRecord(previous.record)})`;
        return this.broken(
          lineNumber,
          'broken-link',
          `broken link: ${earlier} no longer matches the digest carried by record at line ${lineNumber} (${describeRecord(record)}); one of them was altered`,
        );
      }
      this.accept(record, digests[index]!);
    }
    return undefined;
  }

  /**
   * A batch read by both threads: the worker's lines `[0, workerLines)` as far as it read and
   * linked them, this thread's `readings` of the rest. The worker's lines are taken once the
   * first one's link to the batch before holds (the seam, which only this thread knows); those
   * it did not take — all of them if the seam does not hold — are read here, and every line not
   * taken is checked as any other, so a refusal names the same line in the same words whichever
   * thread first met it.
   */
  checkRead(
    batch: LineBatch,
    reading: WorkerBatchReading,
    records: readonly R[],
    read: LineReader<R>,
    workerLines: number,
    readings: readonly (LineReading<R> | { kind: 'empty' })[],
  ): Broken | undefined {
    const first = records[0];
    const verified = first !== undefined && first.prev === this.head && first.seq === this.nextSeq ? reading.verified : 0;
    for (let index = 0; index < verified; index += 1) this.accept(records[index]!, reading.digests[index]!);
    if (verified === batch.starts.length) return undefined;
    if (verified === workerLines) return this.check(readings, reading.digests.slice(verified));
    const untaken = readBatch(batch, read, verified, workerLines);
    // A line that could not be read ends the reading: the check refuses there.
    const rest = untaken.length < workerLines - verified ? untaken : untaken.concat(readings);
    return this.check(rest, reading.digests.slice(verified));
  }

  /** The next line, its link verified. */
  private accept(record: R, digest: string): void {
    const entry: ChainEntry<R> = { record, digest, lineNumber: this.nextSeq + 1 };
    if (this.keep) this.entries.push(entry);
    this.onEntry?.(entry);
    this.previous = entry;
    this.head = digest;
    this.nextSeq += 1;
  }

  /**
   * The line after the last verified one is longer than any record (record-bound.ts): refused
   * as corrupt, never cut as a torn tail, whatever it holds.
   */
  overlong(offset: number): Broken {
    const lineNumber = this.nextSeq + 1;
    return this.broken(
      lineNumber,
      'overlong-line',
      `line ${lineNumber} (from byte ${offset}) is longer than any record statecraft writes (over ${MAX_RECORD_BYTES} bytes before its line end, or to the end of the file): it is not an append cut short`,
    );
  }

  private broken(lineNumber: number, reason: Broken['reason'], what: string): Broken {
    return { kind: 'broken', path: this.path, lineNumber, reason, message: `${this.path}: ${what}; the chain is refused as corrupt and nothing was repaired` };
  }
}

/** `intent of run <id> attempt <n>`: how a record is named in messages. */
function describeRecord(record: LinkedRecord): string {
  return record.runId === undefined ? `${record.kind} record` : `${record.kind} of run ${record.runId} attempt ${String(record.attempt)}`;
}
