import {
  classifyOutcome,
  resultReadFromStream,
  type AttemptResult,
  type InterruptionCause,
  type Outcome,
  type RefusalDigest,
  type Stop,
  type StreamReading,
} from '@statecraft/adapter';
import type { OutcomeRecord } from '../chain/record-schemas.js';
import { differences, type FieldDisagreement } from './records-against-kept-files.js';

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
  /** `fields`: what else the record holds of the stream (a refusal's text, the claim, the provider) and the stream does not give. */
  | { state: 'disagrees'; recorded: Classification; fromStream: Classification; fields: FieldDisagreement[] }
  /** `left-to-verify`: digested only, for an exported page: `statecraft verify` classifies the stream from the bundle. */
  | { state: 'not-checked'; reason: 'no-outcome' | 'stream-not-recorded' | 'stream-altered' | 'stream-missing' | 'left-to-verify' };

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
  const fields = fieldsAgainstStream(recorded, reading);
  return sameClassification(asRecorded, fromStream) && fields.length === 0
    ? { state: 'agrees' }
    : { state: 'disagrees', recorded: asRecorded, fromStream, fields };
}

/**
 * Each field of the recorded result that the stream alone gives (resultReadFromStream: the refusals'
 * excerpt, the claim, the terminal reading, cost, turns, the adapter's error, the diagnostic, the
 * provider and the capabilities its init applied), compared with what the kept stream gives. The
 * classification compares the outcome and the refusals' count and digest, never their text: a record
 * whose excerpt named another command, or whose claim or provider was rewritten, with the result
 * file rewritten to match, would read as agreeing.
 */
function fieldsAgainstStream(recorded: RecordedResult, reading: StreamReading): FieldDisagreement[] {
  // As the record could hold it: through JSON, which writes -0 as 0 and a number past a double's
  // range as null — a stream's honest `"turns":-0` must not read as a rewritten record.
  const { appliedCapabilities, ...read } = JSON.parse(JSON.stringify(resultReadFromStream(reading))) as ReturnType<typeof resultReadFromStream>;
  const found: FieldDisagreement[] = [];
  for (const [field, fromStream] of Object.entries(read) as [keyof typeof read, unknown][]) {
    // The count and the digest are the classification's.
    if (field === 'refusalCount' || field === 'refusalDigest') continue;
    if (field === 'refusals') found.push(...refusalsAgainstStream(recorded, read.refusals));
    else found.push(...differences(`result.${field}`, recorded[field], field, fromStream));
  }
  found.push(...differences('result.capabilities.applied', recorded.capabilities.applied, 'init.applied.capabilities', appliedCapabilities));
  return found;
}

/**
 * The excerpt refusal by refusal, so a finding names the field that changed, not the whole excerpt.
 * A record from before the refusals were bounded (no digest) holds each refusal whole: each the
 * excerpt keeps whole is compared with it, and it must hold as many as its count (the classification
 * compares the count with the stream's); entries past the excerpt are not read again. A record whose
 * digest was removed is read the same way, so removing it turns no comparison off.
 */
function refusalsAgainstStream(recorded: RecordedResult, excerpt: RecordedResult['refusals']): FieldDisagreement[] {
  if (recorded.refusalDigest === 'not-recorded') {
    // Such a record held every refusal: as many as its count (the stream's), or entries were added or removed.
    const count =
      recorded.refusals.length === recorded.refusalCount
        ? []
        : [
            {
              field: 'result.refusals.length',
              recorded: { value: recorded.refusals.length },
              keptField: 'refusalCount',
              kept: { value: recorded.refusalCount },
            },
          ];
    return [
      ...count,
      ...excerpt.flatMap((refusal, index) =>
        'cut' in refusal ? [] : differences(`result.refusals.${index}`, recorded.refusals[index], `refusals.${index}`, refusal),
      ),
    ];
  }
  if (recorded.refusals.length !== excerpt.length) return differences('result.refusals', recorded.refusals, 'refusals', excerpt);
  return excerpt.flatMap((refusal, index) => differences(`result.refusals.${index}`, recorded.refusals[index], `refusals.${index}`, refusal));
}

/** Whether two readings of an attempt classify it alike: outcome, cause, the refusals' count and digest, the event counts. */
export function sameClassification(a: Classification, b: Classification): boolean {
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
  if (recorded.cause === 'supervisor-lost') return 'supervisor-lost';
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
