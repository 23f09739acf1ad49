import type { z } from 'zod';
import { readKeptFile, type AttemptAccount } from '@statecraft/records';
import type { Artifact } from '@statecraft/records';
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
}): Promise<Answer<RunLogValue>> {
  const account = await attemptOfRun(options);
  const prompt = readPrompt(account.artifacts.prompt);
  const stream = readStream(account.artifacts.stream, options.entries ?? ENTRY_BOUND);
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
function stateOf(artifact: Artifact, reading: ReturnType<typeof readKeptFile>): { state: 'verified' | 'altered' | 'missing'; message?: string } {
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

/**
 * The stream read once: hashed, and split into lines as it is read, so what is shown is the very
 * bytes that were digested. The entries are dropped unless the digest is the record's.
 */
function readStream(
  artifact: AttemptAccount['artifacts']['stream'],
  bound: number,
): { stream: RunLogValue['stream']; events: LogEntry[]; omitted: number; omittedRefusals: number } {
  if (artifact === 'not-recorded')
    return {
      stream: { path: 'not-recorded', state: 'not-recorded', message: 'no stream was kept for this attempt' },
      events: [],
      omitted: 0,
      omittedRefusals: 0,
    };
  const events: LogEntry[] = [];
  let omitted = 0;
  let omittedRefusals = 0;
  let line = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const take = (bytes: number, text: string | undefined): void => {
    line += 1;
    if (events.length >= bound) {
      omitted += 1;
      if (text !== undefined && isRefusalLine(text)) omittedRefusals += 1;
    } else events.push(text === undefined ? overlongLine(line, bytes) : entryOfLine(line, text));
  };
  const finishLine = (last: Buffer): void => {
    const bytes = pendingBytes + last.length;
    take(bytes, bytes > LINE_BOUND ? undefined : Buffer.concat([...pending, last]).toString('utf8'));
    pending = [];
    pendingBytes = 0;
  };
  const reading = readKeptFile(artifact.path, (chunk) => {
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      finishLine(chunk.subarray(start, end));
      start = end + 1;
    }
    const rest = chunk.subarray(start);
    pendingBytes += rest.length;
    // Past the bound only the size is kept: an endless line costs no memory.
    if (pendingBytes <= LINE_BOUND) pending.push(rest);
    else pending = [];
  });
  if (pendingBytes > 0) finishLine(Buffer.alloc(0));
  const { state, message } = stateOf(artifact, reading);
  const stream = { path: artifact.path, state, ...(message === undefined ? {} : { message }) };
  return state === 'verified' ? { stream, events, omitted, omittedRefusals } : { stream, events: [], omitted: 0, omittedRefusals: 0 };
}

/** Whether a line past the bound is a refusal event: counted, not kept. */
function isRefusalLine(text: string): boolean {
  if (!text.includes('"refusal"')) return false;
  try {
    return (JSON.parse(text) as { type?: unknown }).type === 'refusal';
  } catch {
    return false;
  }
}
