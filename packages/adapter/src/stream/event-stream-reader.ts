import type { ProtocolEvent } from '../protocol/events.js';
import { isTerminalEvent } from '../protocol/events.js';
import type { StreamDiagnostic, SupervisedAttempt } from '../supervise/attempt.js';
import { DEFAULT_MAX_LINE_BYTES, LineSplitter } from './line-splitter.js';
import type { SplitLine } from './line-splitter.js';
import { parseEventLine } from './parse-event-line.js';
import { RefusalTally } from './refusal-tally.js';

/** What the reader kept of a stream: the fields of a supervised attempt it is the source of. */
export type StreamReading = Pick<SupervisedAttempt, 'init' | 'refusals' | 'terminal' | 'counts' | 'streamDiagnostic'>;

export interface ReadEventStreamOptions {
  /** Longest accepted line in bytes, without its terminator; a longer one is malformed (R7.5). */
  maxLineBytes?: number;
  /** Called for each event of the trusted prefix, in order. */
  onEvent?: (event: ProtocolEvent) => void;
}

/**
 * Where the reader is: reading the trusted prefix; draining after the terminal event (lines are
 * counted, never interpreted, R7.4); or stopped at the first bad line (nothing more is looked at).
 */
type Phase = 'prefix' | 'after-terminal' | 'stopped';

/**
 * A push-driven reader, so the supervisor can feed it chunks as they arrive and take what was read
 * at any moment (the deadline does not wait for the stream to end, R7.2). Memory is bounded whatever
 * the mix of events (R7.5): the init, the terminal event, counts, and of the refusals a count, a
 * digest and the first few (refusal-tally.ts). Everything else is in the kept stream.
 */
export class EventStreamReader {
  private readonly maxLineBytes: number;
  private readonly splitter: LineSplitter;
  private phase: Phase = 'prefix';
  private lineNumber = 0;
  private init: StreamReading['init'] = 'not-recorded';
  private readonly refusals = new RefusalTally();
  private terminal: StreamReading['terminal'] = 'not-recorded';
  private readonly counts = { events: 0, progress: 0, toolUses: 0, linesAfterTerminal: 0 };
  private diagnostic: StreamDiagnostic = 'none';
  private ended = false;

  constructor(private readonly options: ReadEventStreamOptions = {}) {
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.splitter = new LineSplitter(this.maxLineBytes, (line) => this.onLine(line));
  }

  push(chunk: Uint8Array): void {
    // After the first bad line the bytes are drained unread: splitting them would cost for nothing.
    if (this.phase !== 'stopped') this.splitter.push(chunk);
  }

  /** The source failed before its end (R7.5: read failure), unless a worse diagnostic came first. */
  fail(error: unknown): void {
    if (this.ended) return;
    if (this.phase === 'prefix') {
      const message = error instanceof Error ? error.message : String(error);
      this.stop({ kind: 'read-failure', lineNumber: this.lineNumber + 1, reason: `the stream could not be read: ${message}` });
    }
    this.ended = true;
  }

  /** The source reached its end: a final line without a newline is still read. */
  end(): void {
    if (this.ended) return;
    if (this.phase !== 'stopped') this.splitter.end();
    this.ended = true;
  }

  /**
   * What was read. Once the source ended, a prefix without a terminal event is `no-result`. Taken
   * before the end (the deadline fired), an unfinished last line is not read and nothing is
   * claimed about the unread rest: `no-result` means read to the end (R7.5).
   */
  reading(): StreamReading {
    const noResult = this.ended && this.phase === 'prefix';
    return {
      init: this.init,
      refusals: this.refusals.reading(),
      terminal: this.terminal,
      counts: { ...this.counts },
      streamDiagnostic: noResult ? { kind: 'no-result' } : this.diagnostic,
    };
  }

  private onLine(line: SplitLine): void {
    // A chunk may complete several lines after the first bad one; none of them is looked at.
    if (this.phase === 'stopped') return;
    this.lineNumber += 1;
    if (this.phase === 'after-terminal') {
      this.counts.linesAfterTerminal += 1;
      return;
    }
    const parsed = parseEventLine(line, this.lineNumber, this.maxLineBytes);
    if (parsed.kind === 'read-failure') {
      this.stop({ kind: 'read-failure', lineNumber: this.lineNumber, reason: parsed.reason });
      return;
    }
    const problem = parsed.kind === 'malformed' ? parsed.reason : this.orderProblem(parsed.event);
    if (problem !== undefined) {
      this.stop({
        kind: 'malformed',
        lineNumber: this.lineNumber,
        reason: problem,
        // Kept verbatim as evidence; a cut oversize line may end mid-character, hence a lenient decode here.
        line: line.bytes.toString('utf8'),
        lineBytes: line.lineBytes,
        lineBytesKept: line.bytes.length,
      });
      return;
    }
    if (parsed.kind === 'event') this.accept(parsed.event, line.bytes);
  }

  /** "Typed and ordered" (R1.2): init first at seq 0, exactly one init, seq rising by one. */
  private orderProblem(event: ProtocolEvent): string | undefined {
    const where = `event stream line ${this.lineNumber}`;
    if (this.init === 'not-recorded') {
      if (event.type !== 'init') return `${where}: the first event must be "init", got "${event.type}"`;
      if (event.seq !== 0) return `${where}: field "seq": the init event must have seq 0, got ${event.seq}`;
      return undefined;
    }
    if (event.type === 'init') return `${where}: a second "init" event`;
    const expected = this.counts.events;
    if (event.seq !== expected) return `${where}: field "seq": expected ${expected}, got ${event.seq}`;
    return undefined;
  }

  private accept(event: ProtocolEvent, line: Buffer): void {
    this.counts.events += 1;
    if (event.type === 'init') this.init = event;
    if (event.type === 'refusal') this.refusals.add(event, line);
    if (event.type === 'progress') {
      this.counts.progress += 1;
      this.counts.toolUses += event.tools.length;
    }
    if (isTerminalEvent(event)) {
      this.terminal = event;
      this.phase = 'after-terminal';
      // From here lines are only counted (R7.4): the splitter stops keeping their bytes.
      this.splitter.countOnly = true;
    }
    this.options.onEvent?.(event);
  }

  private stop(diagnostic: Exclude<StreamDiagnostic, 'none'>): void {
    this.diagnostic = diagnostic;
    this.phase = 'stopped';
  }
}
