import type { z } from 'zod';
import type { RunShowAnswerSchema } from '../../json-schemas/index.js';
import { asCliError } from '../../errors.js';
import type { ExitCode } from '../../exit-codes.js';
import { openRecordsOrRefuse, runShow } from '../../commands/run-show.js';
import { notRecordedStream, readStream, runLog, StreamLog, type RunLogValue, type StreamLogValue } from '../../commands/run-log.js';
import { runDiff, type RunDiffValue } from '../../commands/run-diff.js';
import type { Artifact, KeptFileReading, KeptStreamConsumer, OpenedTargetRecords } from '@statecraft/records';
import { EmbedHead, embedKeptFile, EMBED_BOUND, type EmbeddedFile } from './embedded-file.js';
import { readSignatureStates, type SignatureStates } from './signature-states.js';
import { TIMELINE_ENTRIES, TIMELINE_WORDS } from './timeline-section.js';

export type ShownAccount = z.infer<typeof RunShowAnswerSchema>;

/** Everything one reviewer's page shows, read once: the values `run show`, `run log` and `run diff` compute, and the kept files. */
export interface ReviewerEvidence {
  shown: ShownAccount;
  /** `run show`'s exit code for the attempt: 0 only when it completed and its evidence holds. */
  exitCode: ExitCode;
  log: RunLogValue;
  /**
   * Where the timeline's reading stopped, when it did not read the whole stream into lines (an
   * export's page): the bytes its lines span, of the stream's; `whole` otherwise.
   */
  timelineRead: 'whole' | { listedBytes: number; streamBytes: number };
  /** The candidate against its base, or why git could not compare them. */
  diff: RunDiffValue | { unavailable: string };
  files: EmbeddedFile[];
  signatures: SignatureStates;
}

export interface ReviewerPageOptions {
  home: string;
  target: string;
  runId: string;
  /** Default: the run's latest attempt. */
  attempt?: number;
  /** How much of each kept file the page carries (default 4 MiB). */
  embedBound?: number;
  /** false: the stream is digested, not classified again: the page an export carries (decision 0351). */
  classifyStream?: boolean;
  /** The target's records, opened by the caller (an export makes its bundle from the same reading); else opened here. */
  records?: OpenedTargetRecords;
}

/**
 * Reads the attempt as `run show` does, then its timeline, its diff and its kept files, all of the
 * same attempt. The stream, the largest of them, is read once: the pass that digests it and
 * classifies it again for `run show` also makes the timeline and the start the page embeds.
 */
export async function gatherReviewerEvidence(options: ReviewerPageOptions): Promise<ReviewerEvidence> {
  const bound = options.embedBound ?? EMBED_BOUND;
  // An export's page reads the stream into lines only as far as it lists them: nothing in its pass classifies the rest (decision 0440).
  const streamPass = new StreamPass(bound, options.classifyStream === false);
  // Opened and verified once for everything the page reads: the account, its timeline, its diff.
  const records = options.records ?? (await openRecordsOrRefuse(options.home, options.target));
  const shown = await runShow({
    home: options.home,
    target: options.target,
    records,
    runId: options.runId,
    ...attemptOf(options),
    streamAlsoTo: streamPass,
    ...(options.classifyStream === false ? { classifyStream: false } : {}),
  });
  const account = shown.value;
  // The attempt `run show` chose, by number: a later attempt appended meanwhile is not mixed in.
  const same = { home: options.home, target: options.target, runId: account.runId, attempt: account.attempt, records };
  const stream = account.artifacts.stream;
  // Only what the page lists is kept: a long stream's events, held whole, would cost its size again in memory.
  const streamRead = stream === 'not-recorded' ? notRecordedStream() : streamPass.timeline(stream);
  const log = (await runLog({ ...same, entries: TIMELINE_ENTRIES, streamRead })).value;
  let diff: ReviewerEvidence['diff'];
  try {
    diff = (await runDiff(same)).value;
  } catch (error) {
    const known = asCliError(error);
    if (known === undefined) throw error;
    diff = { unavailable: known.message };
  }
  return {
    shown: account,
    exitCode: shown.exitCode,
    log,
    timelineRead:
      streamRead.listedBytes === undefined || stream === 'not-recorded' ? 'whole' : { listedBytes: streamRead.listedBytes, streamBytes: stream.bytes },
    diff,
    files: keptFiles(account, bound, streamPass),
    signatures: await readSignatureStates(options.home, account),
  };
}

/** The page's readers of run show's one pass over the stream: the timeline and the embedded start. */
class StreamPass implements KeptStreamConsumer {
  private readonly log: StreamLog;
  private readonly head: EmbedHead;
  private reading: KeptFileReading | undefined;

  /** `listOnly`: the timeline reads no further into lines than the page lists (StreamLog). */
  constructor(bound: number, listOnly: boolean) {
    this.log = new StreamLog(TIMELINE_ENTRIES, listOnly ? { words: TIMELINE_WORDS } : undefined);
    this.head = new EmbedHead(bound);
  }

  push(chunk: Buffer): void {
    this.log.push(chunk);
    this.head.push(chunk);
  }

  end(reading: KeptFileReading): void {
    this.reading = reading;
  }

  /** The timeline, from the pass when there was one (a stream run show could not read was never passed). */
  timeline(artifact: Artifact): StreamLogValue {
    return this.reading === undefined ? readStream(artifact, TIMELINE_ENTRIES) : this.log.finish(artifact, this.reading);
  }

  embedded(name: string, artifact: Artifact, bound: number): EmbeddedFile {
    return this.reading === undefined ? embedKeptFile(name, artifact, bound) : this.head.finish(name, artifact, this.reading);
  }
}

function attemptOf(options: ReviewerPageOptions): { attempt?: number } {
  return options.attempt === undefined ? {} : { attempt: options.attempt };
}

/** Each file the attempt keeps that the page shows, in the order a reviewer reads them. */
function keptFiles(account: ShownAccount, bound: number, streamPass: StreamPass): EmbeddedFile[] {
  const files: EmbeddedFile[] = [];
  const { request, prompt, stream, stderr, result } = account.artifacts;
  for (const [name, artifact] of [
    ['request', request],
    ['prompt', prompt],
    ['stream', stream],
    ['stderr', stderr],
    ['result', result],
  ] as const) {
    if (artifact === 'not-recorded') continue;
    files.push(name === 'stream' ? streamPass.embedded(name, artifact, bound) : embedKeptFile(name, artifact, bound));
  }
  const acceptance = account.acceptance;
  if (acceptance !== 'not-recorded') {
    acceptance.checks.forEach((check, index) => {
      files.push(embedKeptFile(`check ${String(index + 1)} stdout`, check.stdout, bound));
      files.push(embedKeptFile(`check ${String(index + 1)} stderr`, check.stderr, bound));
    });
    if (acceptance.receiptFile !== 'none') files.push(embedKeptFile('receipt', acceptance.receiptFile, bound));
  }
  return files;
}
