import * as z from 'zod';
import {
  AttemptResultSchema,
  AttemptStartSchema,
  CommitIdSchema,
  CountSchema,
  InterruptionCauseSchema,
  NotRecordedSchema,
  OutcomeSchema,
  QualificationVerdictSchema,
  RecordedCostSchema,
  RecordTimeSchema,
  RefusalDigestSchema,
  RefusalExcerptEntrySchema,
  Sha256HexSchema,
  SizedDigestSchema,
} from '@statecraft/adapter';
import { PostureSchema } from '../posture.js';
import { OutcomeCandidateSchema } from '../candidate.js';
import { AcceptanceRecordSchema, acceptanceRecordAgrees, type AcceptanceRecord } from './acceptance-record.js';
import { LandRecordSchema, PruneRecordSchema, type LandRecord, type PruneRecord } from './land-record.js';
import { SelectionRecordSchema, type SelectionRecord } from '../selection/selection-record.js';

/**
 * Every record opens with its link: `prev` is the sha256 of the previous line's exact bytes
 * (`genesis` for the first), `seq` its position. Altering any earlier byte breaks a link (R8.4).
 */
export const LinkSchema = z.strictObject({
  prev: z.union([z.literal('genesis'), Sha256HexSchema]),
  seq: CountSchema,
  format: z.literal(1),
  at: RecordTimeSchema,
});
const link = LinkSchema.shape;

/** A file kept beside the chain; its digest is in the chain so a changed file is detected. */
export const ArtifactSchema = SizedDigestSchema.extend({
  /** Relative to the target's directory in the product home. */
  path: z.string().min(1),
});
export type Artifact = z.infer<typeof ArtifactSchema>;

/** A torn final line found on opening and cut off before this record was appended. */
export const TruncatedTailSchema = SizedDigestSchema.extend({
  offset: CountSchema,
  bytes: z.int().positive(),
});

/**
 * The result as a chain holds it. Records are never rewritten, so a reader still meets outcomes
 * written before refusals were bounded (decision 0041): those hold every refusal in
 * `refusals` and no `refusalDigest`, which reads `not-recorded` (R8.3). Every record written now
 * has the bounded excerpt and the digest (AttemptResultSchema).
 */
export const StoredAttemptResultSchema = AttemptResultSchema.extend({
  refusals: z.array(RefusalExcerptEntrySchema),
  refusalDigest: z.union([RefusalDigestSchema, NotRecordedSchema]).default('not-recorded'),
});

/**
 * A run group spread over the jobs of an engine (decision 0321): its id, this attempt's index
 * (0-based, as the engine numbers its jobs) and how many attempts the group holds.
 */
const RunGroupSchema = z
  .strictObject({
    id: z
      .string()
      .min(1)
      .max(128)
      .regex(/^[A-Za-z0-9._-]+$/),
    index: z.int().nonnegative(),
    of: z.int().positive(),
  })
  .refine((group) => group.index < group.of, 'a group index is below the number of attempts');
export type RunGroup = z.infer<typeof RunGroupSchema>;

/** Written and fsync'd before the spawn (R8.4): an attempt that has an intent was, or was about to be, run. */
export const IntentRecordSchema = z.strictObject({
  ...link,
  kind: z.literal('intent'),
  runId: z.string().min(1),
  attempt: z.int().positive(),
  /** Repeats posture.adapter's name and version and the qualification verdict: read by `run list` without parsing the rest (see chain-summary.ts). */
  adapter: z.strictObject({ name: z.string().min(1), version: z.string().min(1) }),
  qualification: QualificationVerdictSchema,
  target: z.strictObject({ path: z.string().min(1), key: z.string().min(1) }),
  /** Resolved and recorded at run start (R8.6). */
  baseCommit: CommitIdSchema,
  branch: z.string().min(1),
  workspace: z.string().min(1),
  /**
   * The workspace as the attempt found it, read before the spawn (R13.2): what the attempt changed
   * is counted from here. Absent from intents written before it was recorded: `not-recorded`.
   */
  start: z.union([AttemptStartSchema, NotRecordedSchema]).default('not-recorded'),
  prompt: SizedDigestSchema,
  artifacts: z.strictObject({ request: ArtifactSchema, prompt: ArtifactSchema }),
  deadline: z.strictObject({ milliseconds: z.int().positive(), at: RecordTimeSchema }),
  supervisor: z.strictObject({ pid: z.int().positive(), host: z.string() }),
  posture: PostureSchema,
  truncatedTail: z.union([z.literal('none'), TruncatedTailSchema]),
  /** The run group this attempt is one of, when an engine spread the run (`run --group`); absent otherwise and in intents written before groups. */
  group: RunGroupSchema.optional(),
});
export type IntentRecord = z.infer<typeof IntentRecordSchema>;

/** Appended after the attempt ends: the outcome statecraft classified, never the adapter's word (R8.2). */
export const OutcomeRecordSchema = z.strictObject({
  ...link,
  kind: z.literal('outcome'),
  runId: z.string().min(1),
  attempt: z.int().positive(),
  /** The sha256 of the intent line this outcome concludes. */
  intent: Sha256HexSchema,
  outcome: OutcomeSchema,
  cause: InterruptionCauseSchema,
  /** Repeat the result's: read by `run list` without parsing the rest (see chain-summary.ts). */
  refusalCount: CountSchema,
  cost: RecordedCostSchema,
  timedOut: z.boolean(),
  result: StoredAttemptResultSchema,
  headCommit: z.union([CommitIdSchema, NotRecordedSchema]),
  /** Uncommitted changes left in the workspace at the end; `not-recorded` if git could not say. */
  workspaceDirty: z.union([z.boolean(), NotRecordedSchema]),
  artifacts: z.strictObject({
    stream: z.union([ArtifactSchema, NotRecordedSchema]),
    stderr: z.union([ArtifactSchema, NotRecordedSchema]),
    result: ArtifactSchema,
  }),
  /** The per-attempt TMPDIR is removed after the attempt; a failure is evidence, not an outcome. */
  temporaryDirectory: z.union([z.literal('removed'), z.strictObject({ notRemoved: z.string() })]),
  /**
   * Whether every file of evidence was written: `kept`, or the files that could not be (a full
   * product home), each named with why. Outcomes from before this field was added read as `kept`:
   * a stream that could not be written left no outcome then.
   */
  evidence: z
    .union([z.literal('kept'), z.strictObject({ notKept: z.array(z.strictObject({ path: z.string().min(1), message: z.string() })).min(1) })])
    .default('kept'),
  /** What acceptance judges (R13.2). Absent in records written before acceptance existed: read as `not-recorded`. */
  candidate: OutcomeCandidateSchema.optional(),
  // No posture here: the intent carries it, and what only the end can tell (applied tokens,
  // containment used, survivors) is in \`result\`. Repeating it would double every chain (10k attempts).
});
export type OutcomeRecord = z.infer<typeof OutcomeRecordSchema>;

/** The repeated fields must agree with what they repeat; a record where they differ is not a record. */
export const ChainRecordSchema = z
  .discriminatedUnion('kind', [IntentRecordSchema, OutcomeRecordSchema, AcceptanceRecordSchema, LandRecordSchema, PruneRecordSchema, SelectionRecordSchema])
  .superRefine((record, context) => {
    if (record.kind === 'land' || record.kind === 'prune' || record.kind === 'selection') return;
    const agrees =
      record.kind === 'acceptance'
        ? acceptanceRecordAgrees(record)
        : record.kind === 'intent'
          ? record.adapter.name === record.posture.adapter.name &&
            record.adapter.version === record.posture.adapter.version &&
            record.qualification === record.posture.qualification.verdict
          : record.outcome === record.result.outcome &&
            record.cause === record.result.cause &&
            record.refusalCount === record.result.refusalCount &&
            record.cost === record.result.cost &&
            record.timedOut === record.result.timedOut;
    if (!agrees) context.addIssue({ code: 'custom', message: 'a repeated summary field disagrees with the field it repeats' });
  });
export type ChainRecord = z.infer<typeof ChainRecordSchema>;

/** A record before it is linked: the chain supplies `prev`, `seq`, `format`. */
export type UnlinkedRecord =
  | Omit<IntentRecord, 'prev' | 'seq' | 'format'>
  | Omit<OutcomeRecord, 'prev' | 'seq' | 'format'>
  | Omit<AcceptanceRecord, 'prev' | 'seq' | 'format'>
  | Omit<LandRecord, 'prev' | 'seq' | 'format'>
  | Omit<PruneRecord, 'prev' | 'seq' | 'format'>
  | Omit<SelectionRecord, 'prev' | 'seq' | 'format'>;
