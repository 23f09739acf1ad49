import * as z from 'zod';
import {
  CountSchema,
  DurationMsSchema,
  InterruptionCauseSchema,
  NotRecordedSchema,
  OutcomeSchema,
  RecordedCostSchema,
  Sha256HexSchema,
} from '@statecraft/adapter';
import { AcceptanceRecordSchema, LockHolderSchema, RankKeySchema, SelectionRecordSchema } from '@statecraft/records';

const orNotRecorded = <T extends z.ZodType>(schema: T) => z.union([schema, NotRecordedSchema]);

/** One attempt of a run of several (`run --attempts N --json`): a row of the table, from its records. */
export const RunAttemptRowSchema = z.strictObject({
  attempt: z.int().positive(),
  /** The adapter the attempt ran (round robin over the `--adapter`s given). */
  adapter: z.string().min(1),
  /** Its own worktree and branch; `not-recorded` when no intent was appended for it. */
  workspace: orNotRecorded(z.string().min(1)),
  branch: orNotRecorded(z.string().min(1)),
  outcome: orNotRecorded(OutcomeSchema),
  cause: orNotRecorded(InterruptionCauseSchema),
  /** With --accept: the verdict; `not-recorded` when it was not judged. */
  verdict: orNotRecorded(AcceptanceRecordSchema.shape.verdict),
  refusalCount: orNotRecorded(CountSchema),
  /** Paths and lines the candidate changes from the base. */
  changedPaths: orNotRecorded(CountSchema),
  changedLines: orNotRecorded(CountSchema),
  cost: orNotRecorded(RecordedCostSchema),
  durationMs: orNotRecorded(DurationMsSchema),
  /** What stopped the attempt before or after its records, or stopped its judgement: said, never dropped. */
  problem: z
    .strictObject({
      kind: z.enum(['refused', 'failed', 'acceptance-refused', 'acceptance-failed']),
      message: z.string().min(1),
      path: z.string().min(1).optional(),
    })
    .optional(),
});

/** `run --attempts N --json` (N ≥ 2): each attempt's row, the selection appended, the attempt chosen. */
export const RunAttemptsAnswerSchema = z.strictObject({
  runId: z.string().min(1),
  target: z.string().min(1),
  chain: z.string().min(1),
  /** How many attempts ran at once. */
  parallel: z.int().positive(),
  attempts: z.array(RunAttemptRowSchema),
  /** The selection record: its line and digest, the rule's version and the attempt it chose; `none` when none was appended. */
  selection: z.union([
    z.strictObject({
      line: z.int().positive(),
      sha256: Sha256HexSchema,
      rule: SelectionRecordSchema.shape.rule,
      chosen: z.int().positive(),
      /** The attempts best first, each with the key it was ranked on. */
      ranked: z.array(z.strictObject({ attempt: z.int().positive(), key: RankKeySchema })),
    }),
    z.literal('none'),
    /** The selection could not be appended (an i/o failure, exit 4): the attempts' records stand. */
    z.strictObject({ failed: z.strictObject({ path: z.string().min(1), message: z.string().min(1) }) }),
  ]),
  /** A stale lock of a dead supervisor that was taken over. */
  reclaimedLock: z.union([z.literal('none'), z.literal('unreadable'), LockHolderSchema]),
});
