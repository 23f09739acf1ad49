import type { z } from 'zod';
import { readKeptFile, type AttemptAccount, type KeptFileReading } from '@statecraft/records';
import type { Artifact, OpenedTargetRecords } from '@statecraft/records';
import type { RunLogAnswerSchema } from '../json-schemas/index.js';
import type { Answer } from '../answer.js';
import { EXIT } from '../exit-codes.js';
import { attemptOfRun } from './attempt-of-run.js';
import { entryOfLine, LINE_BOUND, overlongLine, type LogEntry } from './run-log-events.js';
import { renderLog } from './run-log-render.js';

export type RunLogValue = z.infer<typeof RunLogAnswerSchema>;

/** How many lines a timeline shows; a stream past it is said to have more. */
const ENTRY_BOUND = 100_000;
/** How much of the prompt is shown. */
const PROMPT_BOUND = 2000;

/**
 * `statecraft run log [target] <run>`: the attempt's kept event stream, read from the product home
 * once and shown only when its digest and size are those the outcome record sealed (R8.4): a
 * stream altered since is said to be so, and none of it is shown. Exit 0 with the stream and the
 * prompt verified; 1 otherwise (altered, missing, or not recorded).
 */
export async function runLog(options: {
  home: string;
  target: string;
  runId: string;
  attempt?: number;
  /** How many events to keep; the rest are counted in `omitted`. */
  entries?: number;
  /** The stream's timeline as a StreamLog read it already, in the pass that digested it: not read again. */
  streamRead?: StreamLogValue;
  /** The target's records as the caller opened them: not opened and verified again. */
  records?: OpenedTargetRecords;
}): Promise<Answer<RunLogValue>> {
  const account = await attemptOfRun(options);
  const prompt = readPrompt(account.artifacts.prompt);
  const stream = options.streamRead ?? readStream(account.artifacts.stream, options.entries ?? ENTRY_BOUND);
  const value: RunLogValue = {
    target: account.target,
    runId: account.runId,
    attempt: account.attempt,
    outcome: account.outcome,
    cause: account.cause,
    prompt,
    stream: stream.stream,
    events: stream.events,
    omitted: stream.omitted,
    omittedRefusals: stream.omittedRefusals,
  };
  const holds = prompt.state === 'verified' && stream.stream.state === 'verified';
  return { value, exitCode: holds ? EXIT.ok : EXIT.finding, human: renderLog };
}

/** What a kept file is to its record, from one reading: the same bytes, or not. */
function stateOf(artifact: Artifact, reading: KeptFileReading): { state: 'verified' | 'altered' | 'missing'; message?: string } {
  if (reading.kind === 'unreadable') return { state: 'missing', message: `${artifact.path}: ${reading.message}` };
  if (reading.sha256 === artifact.sha256 && reading.bytes === artifact.bytes) return { state: 'verified' };
  return {
    state: 'altered',
    message: `${artifact.path} does not match its record (sealed: ${String(artifact.bytes)} bytes, sha256 ${artifact.sha256}; read: ${String(reading.bytes)} bytes, sha256 ${reading.sha256}): not shown`,
  };
}

function readPrompt(artifact: Artifact): RunLogValue['prompt'] {
  const chunks: Buffer[] = [];
  let kept = 0;
  const reading = readKeptFile(artifact.path, (chunk) => {
    if (kept > PROMPT_BOUND * 4) return;
    chunks.push(chunk);
    kept += chunk.length;
  });
  const { state } = stateOf(artifact, reading);
  if (state !== 'verified') return { path: artifact.path, state, cut: false };
  const text = Buffer.concat(chunks).toString('utf8');
  const cut = text.length > PROMPT_BOUND || kept < artifact.bytes;
  return { path: artifact.path, state, text: text.slice(0, PROMPT_BOUND), cut };
}

export type StreamLogValue = {
  stream: RunLogValue['stream'];
  events: LogEntry[];
  omitted: number;
  omittedRefusals: number;
  /** Set when the reading stopped listing (StreamLog's `listOnly`): the bytes its events span, line ends included; nothing after them was split into lines. */
  listedBytes?: number;
};

/**
 * The stream read once: hashed, and split into lines as it is read, so what is shown is the very
 * bytes that were digested. The entries are dropped unless the digest is the record's.
 */
export function readStream(artifact: AttemptAccount['artifacts']['stream'], bound: number): StreamLogValue {
  if (artifact === 'not-recorded') return notRecordedStream();
  const log = new StreamLog(bound);
  return log.finish(
    artifact,
    readKeptFile(artifact.path, (chunk) => log.push(chunk), { lent: true }),
  );
}

export function notRecordedStream(): StreamLogValue {
  return {
    stream: { path: 'not-recorded', state: 'not-recorded', message: 'no stream was kept for this attempt' },
    events: [],
    omitted: 0,
    omittedRefusals: 0,
  };
}

const REFUSAL_WORD = Buffer.from('"refusal"');

/**
 * The timeline of a stream, fed its bytes in chunks by whoever reads it (here, or the reviewer's
 * page, from the one pass that also digests and classifies it): the first `bound` lines as
 * entries, the rest counted with their refusals. With `listOnly`, the reading stops at the first
 * line past `bound` lines or past `listOnly.words` characters of their words, and the rest is
 * not split into lines at all: an export's page, whose stream no one classifies in that pass, then
 * reads no more of a long stream than it lists (decision 0440), and says how far that was.
 */
export class StreamLog {
  private readonly events: LogEntry[] = [];
  private omitted = 0;
  private omittedRefusals = 0;
  private line = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Bytes of the stream before the chunk being pushed. */
  private offset = 0;
  private words = 0;
  /** With `listOnly`, once the listing stopped: where the first line not listed starts. */
  private listedBytes: number | undefined;

  constructor(
    private readonly bound: number,
    private readonly listOnly?: { words: number },
  ) {}

  push(chunk: Buffer): void {
    if (this.listedBytes !== undefined) return;
    let start = 0;
    // Where the refusal word is next found in this chunk: searched once per occurrence, not once per line.
    let word = this.listOnly === undefined ? chunk.indexOf(REFUSAL_WORD) : -1;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      const lineStart = this.offset + start - this.pendingBytes;
      if (!this.finishLine(chunk.subarray(start, end), word !== -1 && word + REFUSAL_WORD.length <= end)) {
        this.listedBytes = lineStart;
        return;
      }
      start = end + 1;
      if (word !== -1 && word < start) word = chunk.indexOf(REFUSAL_WORD, start);
    }
    this.offset += chunk.length;
    const rest = chunk.subarray(start);
    this.pendingBytes += rest.length;
    // Past the bound only the size is kept: an endless line costs no memory. Copied: the chunk is only lent.
    if (this.pendingBytes <= LINE_BOUND) this.pending.push(Buffer.from(rest));
    else this.pending = [];
  }

  /** The reading of the bytes pushed: the entries, or none unless they are the sealed stream's. */
  finish(artifact: Artifact, reading: KeptFileReading): StreamLogValue {
    if (this.listedBytes === undefined && this.pendingBytes > 0) {
      const lineStart = this.offset - this.pendingBytes;
      if (!this.finishLine(Buffer.alloc(0), false)) this.listedBytes = lineStart;
    }
    const { state, message } = stateOf(artifact, reading);
    const stream = { path: artifact.path, state, ...(message === undefined ? {} : { message }) };
    if (state !== 'verified') return { stream, events: [], omitted: 0, omittedRefusals: 0 };
    const value = { stream, events: this.events, omitted: this.omitted, omittedRefusals: this.omittedRefusals };
    return this.listedBytes === undefined ? value : { ...value, listedBytes: this.listedBytes };
  }

  /**
   * `lastHoldsWord`: whether the refusal word lies within `last`, the line's part in the chunk
   * being read. False when the line is past what `listOnly` lists: it is not read.
   */
  private finishLine(last: Buffer, lastHoldsWord: boolean): boolean {
    const bytes = this.pendingBytes + last.length;
    const pieces = this.pending.length;
    const whole = bytes > LINE_BOUND ? undefined : pieces === 0 ? last : Buffer.concat([...this.pending, last]);
    this.pending = [];
    this.pendingBytes = 0;
    if (this.listOnly !== undefined && this.events.length >= this.bound) return false;
    this.line += 1;
    if (this.events.length < this.bound) {
      const entry = whole === undefined ? overlongLine(this.line, bytes) : entryOfLine(this.line, whole.toString('utf8'));
      if (this.listOnly !== undefined) {
        // The same rule as the page's: the entry whose words pass the bound is not listed, unless it is the first.
        this.words += (entry.text?.length ?? 0) + (entry.command?.length ?? 0);
        if (this.words > this.listOnly.words && this.events.length > 0) return false;
      }
      this.events.push(entry);
      return true;
    }
    this.omitted += 1;
    // Only a line holding the word is decoded: its bytes hold it exactly when its text does. A
    // line read across chunks is searched whole; one inside a chunk was searched with the chunk.
    const holdsWord = pieces === 0 ? lastHoldsWord : whole?.includes(REFUSAL_WORD) === true;
    if (whole !== undefined && holdsWord && isRefusalLine(whole.toString('utf8'))) this.omittedRefusals += 1;
    return true;
  }
}

/** Whether a line past the bound is a refusal event: counted, not kept. */
function isRefusalLine(text: string): boolean {
  try {
    return (JSON.parse(text) as { type?: unknown }).type === 'refusal';
  } catch {
    return false;
  }
}
