import * as z from 'zod';
import { CountSchema, DurationMsSchema, EventCountsSchema, RecordTimeSchema, SizedDigestSchema } from '../schema-pieces.js';
import { ErrorEventSchema, InitEventSchema, NotRecordedSchema, ResultEventSchema } from '../protocol/events.js';
import { RefusalTallySchema } from '../stream/refusal-tally.js';

/**
 * What the supervisor observed of one adapter process: the shapes shared by the supervisor
 * (which produces them), the classifier and the records (which keep them).
 */

/** How the process tree was contained (R7.3); part of the posture. */
/** `bwrap`: the PID namespace of the protected evidence boundary (R12), which replaces `unshare` when it is on. */
const ContainmentMechanismSchema = z.enum(['pid-namespace', 'process-group', 'bwrap']);
export type ContainmentMechanism = z.infer<typeof ContainmentMechanismSchema>;

export const ContainmentSchema = z.strictObject({
  mechanism: ContainmentMechanismSchema,
  /** What this mechanism cannot see, in words (e.g. a descendant that scrubs its environment). */
  blindSpots: z.array(z.string()),
});
export type Containment = z.infer<typeof ContainmentSchema>;

/** A process of the attempt still alive after the kill and the bounded reaping wait. */
export const SurvivorSchema = z.strictObject({
  pid: z.int().positive(),
  command: z.union([z.string(), NotRecordedSchema]),
});
export type Survivor = z.infer<typeof SurvivorSchema>;

/** Stream diagnostics in precedence order (R7.5): malformed > read-failure > no-result. */
export const StreamDiagnosticSchema = z.union([
  z.literal('none'),
  z.strictObject({
    kind: z.literal('malformed'),
    /** 1-based line number of the offending line. */
    lineNumber: z.int().positive(),
    reason: z.string(),
    /** The offending line verbatim (decoded as UTF-8; cut at `lineBytesKept` bytes when oversize). */
    line: z.string(),
    lineBytes: CountSchema,
    lineBytesKept: CountSchema,
  }),
  z.strictObject({
    kind: z.literal('read-failure'),
    lineNumber: z.int().positive(),
    reason: z.string(),
  }),
  z.strictObject({ kind: z.literal('no-result') }),
]);
export type StreamDiagnostic = z.infer<typeof StreamDiagnosticSchema>;

/**
 * Why the supervisor stopped an attempt before its own end: its deadline (R7.2), the operator's
 * interrupt (R8.1), a file of evidence that could not be written (R8.4), or one that reached the
 * keep bound (R8.4, keep-bound.ts). `none`: it ended itself.
 */
const StopSchema = z.enum(['none', 'deadline', 'operator-cancel', 'evidence-not-kept', 'evidence-bound', 'supervisor-lost']);
export type Stop = z.infer<typeof StopSchema>;

export const ExitSchema = z.union([
  z.strictObject({ code: z.int().nullable(), signal: z.string().nullable() }),
  /** The supervisor stopped waiting (deadline) before the child's exit was seen. */
  z.literal('not-observed'),
]);

/** A kept output stream: its length and sha256. */
export const StreamDigestSchema = SizedDigestSchema;

/**
 * One supervised adapter process, as observed. Memory is bounded: only the init, the terminal
 * event, counts and a bounded tally of the refusals are kept; the raw stream goes to a file.
 * @public the schema of a published shape, kept whole though only its type is read here
 */
export const SupervisedAttemptSchema = z.strictObject({
  init: z.union([InitEventSchema, NotRecordedSchema]),
  refusals: RefusalTallySchema,
  terminal: z.union([ResultEventSchema, ErrorEventSchema, NotRecordedSchema]),
  /** Named as the result records it (`events.count`), so supervisor, classifier and record say one thing. */
  events: EventCountsSchema,
  streamDiagnostic: StreamDiagnosticSchema,
  timedOut: z.boolean(),
  /** What stopped the attempt before its own end, if anything: the classifier reads this first. */
  stoppedBy: StopSchema,
  exit: ExitSchema,
  containment: ContainmentSchema,
  survivors: z.array(SurvivorSchema),
  startedAt: RecordTimeSchema,
  endedAt: RecordTimeSchema,
  durationMs: DurationMsSchema,
  stdout: StreamDigestSchema,
  stderr: StreamDigestSchema,
});
export type SupervisedAttempt = z.infer<typeof SupervisedAttemptSchema>;
