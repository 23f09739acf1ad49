import * as z from 'zod';
import {
  AttemptResultSchema,
  CommitIdSchema,
  CountSchema,
  DurationMsSchema,
  ExitSchema,
  InterruptionCauseSchema,
  NotRecordedSchema,
  OutcomeSchema,
  RecordedCostSchema,
  RecordedCoverageSchema,
  RecordTimeSchema,
  RefusalDigestSchema,
  Sha256HexSchema,
  StreamDiagnosticSchema,
  QualificationVerdictSchema,
} from '@statecraft/adapter';
import { AcceptanceViewSchema } from './acceptance-answer.js';
import { FindingSchema } from './doctor-answer.js';
import { RunAttemptsAnswerSchema } from './run-attempts-answer.js';
import { SelectionViewSchema } from './selection-view.js';
import {
  AcceptanceRecordSchema,
  ArtifactSchema,
  IntentRecordSchema,
  OutcomeCandidateSchema,
  LockHolderSchema,
  OutcomeRecordSchema,
  PostureSchema,
  StoredAttemptResultSchema,
  TruncatedTailSchema,
} from '@statecraft/records';

/** A field the records may not hold (R8.3): the value, or `not-recorded`. */
const orNotRecorded = <T extends z.ZodType>(schema: T) => z.union([schema, NotRecordedSchema]);

const result = AttemptResultSchema.shape;

/** The posture as an account shows it: the chain's, with the coverage read into its current form. */
export const AccountPostureSchema = PostureSchema.extend({ coverage: RecordedCoverageSchema });

/** Where the attempt's records sit in the chain: line numbers and the sha256 of each line. */
const RecordLineSchema = z.strictObject({ line: z.int().positive(), sha256: Sha256HexSchema });

/**
 * One attempt as an operator reads it (packages/acceptance/src/attempt-account.ts): the body of
 * `run --json` and `run show --json`. Fields are only ever added, never renamed (R11).
 */
export const AttemptAccountSchema = z.strictObject({
  ...IntentRecordSchema.pick({ runId: true, attempt: true }).shape,
  state: z.enum(['concluded', 'running', 'dangling']),
  /** `failed` after a failed acceptance (R13.4); else the outcome record's. */
  outcome: orNotRecorded(OutcomeSchema),
  /** The record the outcome is read from: the outcome record, or the acceptance that judged the work not to hold. */
  outcomeFrom: orNotRecorded(z.strictObject({ record: z.enum(['outcome', 'acceptance']), line: z.int().positive(), sha256: Sha256HexSchema })),
  /** The outcome the supervisor classified when the attempt ended: the claim kept beside a failed acceptance. */
  attemptOutcome: orNotRecorded(OutcomeSchema),
  cause: orNotRecorded(InterruptionCauseSchema),
  refusalCount: orNotRecorded(CountSchema),
  refusals: orNotRecorded(StoredAttemptResultSchema.shape.refusals),
  refusalDigest: orNotRecorded(RefusalDigestSchema),
  providerClaim: result.providerClaim,
  cost: orNotRecorded(RecordedCostSchema),
  timedOut: orNotRecorded(z.boolean()),
  /** `none`: the stream was read cleanly to its terminal event. The result's name for it. */
  streamDiagnostic: orNotRecorded(StreamDiagnosticSchema),
  /** The same value as `streamDiagnostic`, under the name this document first gave it; kept, since fields are never renamed (R11). */
  streamError: orNotRecorded(StreamDiagnosticSchema).meta({ deprecated: true, description: 'the same value as streamDiagnostic' }),
  adapterError: orNotRecorded(result.adapterError),
  unverifiableRefusalAccount: z.boolean(),
  turns: result.turns,
  target: z.string().min(1),
  ...IntentRecordSchema.pick({ workspace: true, branch: true, baseCommit: true }).shape,
  headCommit: orNotRecorded(CommitIdSchema),
  workspaceDirty: orNotRecorded(z.boolean()),
  /** The latest acceptance of this attempt, or its first final verdict (R13.4); `not-attempted` for one that did not complete; `not-recorded` when never judged. */
  acceptance: orNotRecorded(AcceptanceViewSchema),
  /** What acceptance judges (R13.2): identified for a completed attempt, else `not-recorded`. */
  candidate: OutcomeCandidateSchema,
  startedAt: RecordTimeSchema,
  endedAt: orNotRecorded(RecordTimeSchema),
  durationMs: orNotRecorded(DurationMsSchema),
  deadline: IntentRecordSchema.shape.deadline,
  exit: orNotRecorded(ExitSchema),
  provider: result.provider,
  posture: AccountPostureSchema,
  records: z.strictObject({ chain: z.string().min(1), intent: RecordLineSchema, outcome: orNotRecorded(RecordLineSchema) }),
  /** Absolute paths of the files kept beside the chain, each with the digest the chain holds. */
  artifacts: z.strictObject({
    request: ArtifactSchema,
    prompt: ArtifactSchema,
    stream: orNotRecorded(ArtifactSchema),
    stderr: orNotRecorded(ArtifactSchema),
    result: orNotRecorded(ArtifactSchema),
  }),
  evidence: orNotRecorded(OutcomeRecordSchema.shape.evidence.unwrap()),
});

/** Whether a kept file still has the digest the chain holds (R8.4). */
const ArtifactStateSchema = z.enum(['verified', 'altered', 'missing', 'not-recorded']);
export const ArtifactCheckSchema = z.strictObject({
  request: ArtifactStateSchema,
  prompt: ArtifactStateSchema,
  stream: ArtifactStateSchema,
  stderr: ArtifactStateSchema,
  result: ArtifactStateSchema,
});

/** The supervisor's reading of an attempt, as `doctor` compares it: outcome, cause, refusals, event counts. */
const ClassificationSchema = z.strictObject({
  outcome: OutcomeSchema,
  cause: InterruptionCauseSchema,
  refusalCount: CountSchema,
  refusalDigest: orNotRecorded(RefusalDigestSchema),
  events: result.events,
});

/** One side of a field a record and a kept file both copy: the value it holds, or `absent` when it holds no such field. */
const HeldValueSchema = z.union([z.strictObject({ value: z.unknown() }), z.literal('absent')]);

/** One field a record and a kept file (or the stream) both hold, with what each says. */
const FieldDisagreementSchema = z.strictObject({
  /** As the record names it (`result.cost`). */
  field: z.string().min(1),
  recorded: HeldValueSchema,
  /** As the kept file names it (`cost`). */
  keptField: z.string(),
  kept: HeldValueSchema,
});

/**
 * The attempt classified again from its kept stream with the supervisor's classifier (R8.2), and
 * every other field of the result the stream alone gives read again (`fields`: each that differs).
 */
export const OutcomeCheckSchema = z.union([
  z.strictObject({ state: z.literal('agrees') }),
  z.strictObject({
    state: z.literal('disagrees'),
    recorded: ClassificationSchema,
    fromStream: ClassificationSchema,
    fields: z.array(FieldDisagreementSchema),
  }),
  z.strictObject({
    state: z.literal('not-checked'),
    reason: z.enum(['no-outcome', 'stream-not-recorded', 'stream-altered', 'stream-missing', 'left-to-verify']),
  }),
]);

/**
 * A record whose copy of a kept, digest-verified file is not what the file holds (R8.4): what
 * `doctor` reports as `record-disagrees-with-kept-file`, from the same comparison
 * (packages/acceptance/src/records-against-kept-files.ts).
 */
export const RecordDisagreementSchema = z.strictObject({
  record: z.enum(['intent', 'outcome']),
  /** The record's line in the chain. */
  line: z.int().positive(),
  /** The kept file, as an absolute path. */
  file: z.string().min(1),
  /** Each field that differs; `(the file)` alone when the file is not what it names (not JSON, not a request or result). */
  fields: z.array(FieldDisagreementSchema).min(1),
});

/** `run show --json`: the account, its kept files re-digested and its stream re-classified, and whether its head is still the branch tip. */
export const RunShowAnswerSchema = AttemptAccountSchema.extend({
  artifactCheck: ArtifactCheckSchema,
  outcomeCheck: OutcomeCheckSchema,
  headIs: z.enum(['current', 'stale', 'not-recorded']),
  /**
   * What the records copy of the kept request and result, compared field by field where the file's
   * digest verifies (an altered or missing file is `artifactCheck`'s): empty when every copy agrees.
   */
  recordDisagreements: z.array(RecordDisagreementSchema),
  /**
   * What `doctor` finds of this attempt's records that the fields above do not carry, as doctor
   * words it: a record naming a kept file where the attempt does not keep it (`evidence-elsewhere`),
   * and each acceptance of it that no judgement wrote as it stands (a verdict after a final one,
   * evidence outside its acceptance-N, another attempt or candidate, a receipt.json that is not
   * its receipt). Empty when there is none; any is a finding (exit 1).
   */
  recordFindings: z.array(FindingSchema),
  /**
   * The run's selection among its attempts (the last selection record of the run). Absent for a
   * run with no selection, so `run --json` of one attempt and `run show --json` of it stay the same
   * value; `none` is never written now, and read as absent.
   */
  selection: z.union([SelectionViewSchema, z.literal('none')]).optional(),
  /**
   * The agent's last message, read from the end of the kept stream (a `progress` event of kind
   * `message`): its seq, its text (the first 2000 characters; `cut` when longer) — the agent's words,
   * not statecraft's. `none` when the stream holds none statecraft can read.
   */
  finalMessage: z.union([z.strictObject({ seq: CountSchema, text: z.string().min(1), cut: z.boolean() }), z.literal('none')]).optional(),
  /**
   * The provider's own words for the error that ended the attempt (an outcome caused by
   * `provider-error`), read from the kept stream: the event that holds them, the text (the first
   * 2000 characters; `cut` when longer), the provider's code for it and the HTTP status, each when
   * the provider gave it. `none` when the stream ends in no provider error, or gives no words for it.
   */
  providerError: z
    .union([
      z.strictObject({
        seq: CountSchema,
        text: z.string().min(1),
        code: z.string().min(1),
        httpStatus: z.union([z.int().positive(), z.literal('not-recorded')]),
        cut: z.boolean(),
      }),
      z.literal('none'),
    ])
    .optional(),
  /** With `--html`: the reviewer's page written, its absolute path and its size. */
  page: z.strictObject({ path: z.string().min(1), bytes: CountSchema }).optional(),
});

/** `run --json` of an attempt that ran: what `run show` prints, plus what opening the chain found. */
export const RunAccountAnswerSchema = RunShowAnswerSchema.extend({
  /** A torn final line found on opening, truncated before this attempt's intent (R8.4). */
  truncatedTail: z.union([z.literal('none'), TruncatedTailSchema]),
  /** A lock left by a dead supervisor, taken over for this attempt. */
  reclaimedLock: z.union([z.literal('none'), LockHolderSchema, z.literal('unreadable')]),
  /**
   * What the target's checkout held, at the start, that is not committed (staged, unstaged, and
   * untracked files not ignored; an untracked directory once): none of it is part of the attempt,
   * which starts from a commit. `count` of them all, `paths` the first 100. Absent for a retry (it
   * starts in its run's workspace) and when git could not say.
   */
  uncommitted: z.strictObject({ count: CountSchema, paths: z.array(z.string().min(1)).max(100) }).optional(),
  /** With `--accept`: why the attempt could not be judged (refused or failed), beside its recorded outcome. */
  acceptanceProblem: z
    .union([
      z.strictObject({ refused: z.strictObject({ message: z.string().min(1) }) }),
      z.strictObject({ failed: z.strictObject({ message: z.string().min(1) }) }),
    ])
    .optional(),
});

/** `run --json` refused before anything was spawned or appended (exit 2): stage, reason and evidence. */
export const RunRefusedAnswerSchema = z.strictObject({
  refused: z.strictObject({
    stage: z.enum(['plan', 'launch']),
    reason: z.enum([
      'target',
      'adapter',
      'manifest',
      'negotiation',
      'environment',
      'credential',
      'coverage',
      'chain-broken',
      'chain-moved',
      'unknown-run',
      'base-commit',
      'live-attempt',
      'workspace',
      'boundary',
      'cancelled',
    ]),
    message: z.string().min(1),
    /** Structured evidence (missing tokens, the live holder, refused names …): its shape is the reason's. */
    detail: z.unknown(),
  }),
});

/** `run --json` that failed on i/o (exit 4), naming the path; `spawned` says whether an attempt ran. */
export const RunFailedAnswerSchema = z.strictObject({
  failed: z.strictObject({
    stage: z.enum(['plan', 'intent', 'spawn', 'evidence', 'outcome']),
    path: z.string().min(1),
    message: z.string().min(1),
    spawned: z.boolean(),
  }),
});

/** `run --json`: one attempt's account, a run of several attempts (run-attempts-answer.ts), or a refusal or failure. */
export const RunAnswerSchema = z.union([RunAccountAnswerSchema, RunRefusedAnswerSchema, RunFailedAnswerSchema, RunAttemptsAnswerSchema]);

/** One line of `run list`. */
export const AttemptSummarySchema = z.strictObject({
  ...AttemptAccountSchema.pick({
    runId: true,
    attempt: true,
    state: true,
    outcome: true,
    cause: true,
    refusalCount: true,
    cost: true,
    timedOut: true,
    startedAt: true,
  }).shape,
  /** When its outcome was recorded, or `not-recorded`: from `startedAt` to it, the attempt's time as the chain saw it. */
  concludedAt: orNotRecorded(RecordTimeSchema),
  /** The adapter's name and version, as one string. */
  adapter: z.string().min(1),
  qualification: QualificationVerdictSchema,
  /** The latest acceptance's verdict, or the first final one (R13.4); `not-recorded` when never judged. */
  acceptance: orNotRecorded(AcceptanceRecordSchema.shape.verdict),
});

/** `run list --json`: every attempt in the target's chain, folded read-only. */
export const RunListAnswerSchema = z.strictObject({
  target: z.string().min(1),
  chain: z.string().min(1),
  tornTail: z.union([z.literal('none'), TruncatedTailSchema]),
  attempts: z.array(AttemptSummarySchema),
});
