import * as z from 'zod';
import { CommitIdSchema } from './schema-pieces.js';

/*
 * A candidate's origin (R13.2): the workspace as its attempt found it, and who made it — shared by
 * the run's records and the receipt. Not in schema-pieces.ts, which the adapters' bundles carry
 * whole: these shapes are no adapter's, and an adapter's bytes (its digest, R3.1) stay its own.
 */

/**
 * What a commit that was on a run's branch before an attempt started is to that run (R13.2): its
 * base; the candidate of an earlier attempt (the first attempt whose candidate it was); or
 * neither — a commit made on the branch outside any completed attempt (by the operator, or by an
 * agent whose attempt did not complete).
 */
export const EarlierCommitSchema = z.union([z.literal('base'), z.strictObject({ candidateOf: z.int().positive() }), z.literal('other')]);
export type EarlierCommit = z.infer<typeof EarlierCommitSchema>;

/**
 * The workspace as an attempt found it (R13.2), read from the repository's side before the adapter
 * was spawned: its HEAD, what that commit is to the run, and the tree its work tree held — HEAD's
 * own, or, where an earlier attempt left changes uncommitted there, the tree with those changes.
 */
export const AttemptStartSchema = z.strictObject({
  commit: CommitIdSchema,
  tree: CommitIdSchema,
  /** The work tree held changes no commit had: `tree` is theirs, not `commit`'s. */
  uncommitted: z.boolean(),
  is: EarlierCommitSchema,
});
export type AttemptStart = z.infer<typeof AttemptStartSchema>;

/**
 * Who made a candidate (R13.2): `statecraft` committed the work tree the attempt left; `agent`
 * moved HEAD during the attempt to a commit that is neither the base nor an earlier candidate of
 * the run (an agent can commit only outside the boundary); `earlier`: the candidate was on the
 * run's branch before the attempt started (its start, or a commit HEAD was moved back to).
 */
export const CandidateMadeBySchema = z.enum(['agent', 'statecraft', 'earlier']);
