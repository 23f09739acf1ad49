import * as z from 'zod';
import { AttemptStartSchema, CandidateMadeBySchema, CountSchema, EarlierCommitSchema, NotRecordedSchema } from '@statecraft/adapter';

const CommitId = z.string().regex(/^[0-9a-f]{40,64}$/);

/** What statecraft says about the files git ignores when it commits the work tree (R13.2). */
export const IGNORED_FILES_NOTE =
  'the work tree is committed with git add -A: files git ignores, and repositories made inside it, are not part of the candidate';

/**
 * The candidate (R13.2): the commit on the run's branch that acceptance judges, identified by
 * statecraft, never named by the agent — a commit statecraft made of the work tree the attempt
 * left dirty (`madeBy: statecraft`), a commit HEAD moved to during the attempt (`agent`, only
 * outside the boundary), or the commit the attempt started at, untouched (`earlier`). The fields
 * after `madeBy` that say so are absent from records written before they were: read as
 * `not-recorded`, since who made such a candidate was then judged without the attempt's start.
 */
export const CandidateSchema = z.strictObject({
  commit: CommitId,
  tree: CommitId,
  madeBy: CandidateMadeBySchema,
  /** For `madeBy: earlier`, what the candidate is to the run; `not-applicable` for one the attempt made. */
  earlier: z.union([EarlierCommitSchema, z.literal('not-applicable'), NotRecordedSchema]).default('not-recorded'),
  /** The workspace as the attempt found it (also in its intent): what it changed is counted from there. */
  start: z.union([AttemptStartSchema, NotRecordedSchema]).default('not-recorded'),
  /** Paths changed from the base commit to the candidate, in git's order. */
  changedPaths: z.array(z.string().min(1)),
  /**
   * Lines added and removed from the base commit to the candidate, as git counts them (a binary
   * file counts none); `not-recorded` in records written before it was counted.
   */
  changedLines: z.union([z.strictObject({ added: CountSchema, removed: CountSchema }), NotRecordedSchema]).default('not-recorded'),
  /** How many paths differ between the start's tree and the candidate's: 0 when the attempt changed nothing. */
  changedSinceStart: z.union([CountSchema, NotRecordedSchema]).default('not-recorded'),
  /** Ignored files present in the workspace, left out of the candidate; the first few by name. */
  ignored: z.strictObject({
    note: z.string().min(1),
    count: z.int().nonnegative(),
    paths: z.array(z.string().min(1)),
  }),
});
export type Candidate = z.infer<typeof CandidateSchema>;

/**
 * The outcome record's `candidate`: identified for a `completed` attempt; `not-recorded` for any
 * other outcome (nothing to judge, R13.1); `notIdentified` when git could not say (kept as evidence).
 */
export const OutcomeCandidateSchema = z.union([CandidateSchema, z.literal('not-recorded'), z.strictObject({ notIdentified: z.string().min(1) })]);
export type OutcomeCandidate = z.infer<typeof OutcomeCandidateSchema>;
