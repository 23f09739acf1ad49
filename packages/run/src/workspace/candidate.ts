import { z } from 'zod';

const CommitId = z.string().regex(/^[0-9a-f]{40,64}$/);

/** What statecraft says about the files git ignores when it commits the work tree (R13.2). */
export const IGNORED_FILES_NOTE = 'the work tree is committed with git add -A: files git ignores are not part of the candidate';

/**
 * The candidate (R13.2): the commit on the run's branch that acceptance judges, identified by
 * statecraft, never named by the agent — the workspace HEAD when the agent left the tree clean
 * (`madeBy: agent`), else a commit statecraft made of the work tree (`madeBy: statecraft`).
 */
export const CandidateSchema = z.strictObject({
  commit: CommitId,
  tree: CommitId,
  madeBy: z.enum(['agent', 'statecraft']),
  /** Paths changed from the base commit to the candidate, in git's order. */
  changedPaths: z.array(z.string().min(1)),
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
