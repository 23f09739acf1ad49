import {
  classifyOutcome,
  type AttemptResult,
  type InterruptionCause,
  type Outcome,
  type RefusalDigest,
  type Stop,
  type StreamReading,
} from '@statecraft/adapter';
import type { OutcomeRecord } from '@statecraft/run';

/** The result as the chain holds it: a record written before refusals were bounded has no refusal digest. */
export type RecordedResult = OutcomeRecord['result'];

/**
 * What an outcome is compared on: the outcome, its cause, the counts and the digest of the refusal
 * lines — never the refusal texts, of which the record keeps only an excerpt.
 */
export interface Classification {
  outcome: Outcome;
  cause: InterruptionCause;
  refusalCount: number;
  /** `not-recorded` in a record written before refusals were bounded: then the count alone is compared. */
  refusalDigest: RefusalDigest | 'not-recorded';
  events: AttemptResult['events'];
}

/**
 * Whether a recorded outcome is what its kept stream says. `not-checked` names why not: no
 * outcome yet, or a stream the chain does not seal (not kept, altered, missing) — an altered stream
 * is its own finding, and classifying it would say nothing about the record.
 */
export type OutcomeCheck =
  | { state: 'agrees' }
  | { state: 'disagrees'; recorded: Classification; fromStream: Classification }
  | { state: 'not-checked'; reason: 'no-outcome' | 'stream-not-recorded' | 'stream-altered' | 'stream-missing' };

/**
 * Classifies an attempt again from its kept stream with the supervisor's own classifier (R8.2),
 * and compares it with the record. The facts the stream cannot hold — whether the deadline fired,
 * exit, survivors, the operator's interrupt — are taken from the record, as the supervisor had
 * them: each of them can only make an outcome worse, never `completed`, so a record laundered into
 * `completed` cannot hide behind them.
 */
export function reclassifyAttempt(recorded: RecordedResult, reading: StreamReading): OutcomeCheck {
  const classified = classifyOutcome({
    ...reading,
    timedOut: recorded.timedOut,
    stoppedBy: recordedStop(recorded),
    exit: recorded.exit,
    containment: recorded.containment,
    survivors: recorded.survivors,
    startedAt: recorded.startedAt,
    endedAt: recorded.endedAt,
    durationMs: recorded.durationMs,
    stdout: recorded.stdout,
    stderr: recorded.stderr,
  });
  const fromStream: Classification = {
    ...classified,
    refusalCount: reading.refusals.count,
    refusalDigest: reading.refusals.digest,
    // Named as classifyAttempt names them in the result.
    events: reading.events,
  };
  const asRecorded: Classification = {
    outcome: recorded.outcome,
    cause: recorded.cause,
    refusalCount: recorded.refusalCount,
    refusalDigest: recorded.refusalDigest,
    events: recorded.events,
  };
  return sameClassification(asRecorded, fromStream) ? { state: 'agrees' } : { state: 'disagrees', recorded: asRecorded, fromStream };
}

function sameClassification(a: Classification, b: Classification): boolean {
  return (
    a.outcome === b.outcome &&
    a.cause === b.cause &&
    a.refusalCount === b.refusalCount &&
    (a.refusalDigest === 'not-recorded' ||
      b.refusalDigest === 'not-recorded' ||
      (a.refusalDigest.sha256 === b.refusalDigest.sha256 && a.refusalDigest.bytes === b.refusalDigest.bytes)) &&
    a.events.count === b.events.count &&
    a.events.progress === b.events.progress &&
    a.events.toolUses === b.events.toolUses &&
    a.events.linesAfterTerminal === b.events.linesAfterTerminal
  );
}

/**
 * What stopped the supervisor's reading, as the record tells it: the result keeps `timedOut` and
 * the cause, not the stop itself. Each stop only makes an outcome worse (R8.1).
 */
export function recordedStop(recorded: RecordedResult): Stop {
  if (recorded.cause === 'operator-cancel') return 'operator-cancel';
  if (recorded.cause === 'evidence-not-kept') return 'evidence-not-kept';
  if (recorded.cause === 'evidence-bound') return 'evidence-bound';
  return recorded.timedOut ? 'deadline' : 'none';
}

/** `interrupted (deadline)`, `completed`, `refused, 1 refusal`: how a finding names a classification. */
export function describeClassification(classification: Classification): string {
  const cause = classification.cause === 'none' ? '' : ` (${classification.cause})`;
  const digest = classification.refusalDigest;
  const refusals = `${classification.refusalCount} refusal${classification.refusalCount === 1 ? '' : 's'}${classification.refusalCount > 0 && digest !== 'not-recorded' ? ` (lines sha256 ${digest.sha256.slice(0, 12)}…)` : ''}`;
  const events = classification.events;
  return `${classification.outcome}${cause}, ${refusals}, ${events.count} events (${events.progress} progress, ${events.toolUses} tool uses, ${events.linesAfterTerminal} lines after the terminal event)`;
}
