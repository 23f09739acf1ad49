import * as z from 'zod';

const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);
const CommitId = z.string().regex(/^[0-9a-f]{40,64}$/);

/** How the candidate was brought into the operator's branch. */
export const LandMethodSchema = z.enum(['fast-forward', 'merge', 'squash']);
export type LandMethod = z.infer<typeof LandMethodSchema>;

/**
 * A land record (`statecraft land`): an accepted attempt's candidate brought into the operator's
 * branch, naming the acceptance line and receipt it relied on and the commit the branch now
 * points at. The receipt stays current while that commit is reachable from that branch, whatever
 * becomes of the run's own branch (docs/decisions/0171-land-keeps-the-receipt-current.md).
 */
export const LandRecordSchema = z.strictObject({
  prev: z.union([z.literal('genesis'), Sha256Hex]),
  seq: z.int().nonnegative(),
  format: z.literal(1),
  at: z.iso.datetime(),
  kind: z.literal('land'),
  runId: z.string().min(1),
  attempt: z.int().positive(),
  /** The sha256 of the acceptance line whose receipt this landing relied on. */
  acceptance: Sha256Hex,
  /** The receipt file kept beside the chain, as the acceptance record sealed it. */
  receipt: z.strictObject({ path: z.string().min(1), sha256: Sha256Hex }),
  candidate: CommitId,
  /** The operator's branch (a full ref), where it stood before, and the commit it points at after. */
  branch: z.string().min(1),
  before: CommitId,
  commit: CommitId,
  method: LandMethodSchema,
});
export type LandRecord = z.infer<typeof LandRecordSchema>;

/** One concluded attempt's workspace and branch, as `statecraft prune` removed them. */
export const PrunedAttemptSchema = z.strictObject({
  runId: z.string().min(1),
  /** What was removed: the worktree's directory, the run's branch (a full ref), or both. */
  workspace: z.union([z.string().min(1), z.literal('none')]),
  branch: z.union([z.string().min(1), z.literal('none')]),
  /** The commit the branch pointed at when it was deleted. */
  branchCommit: z.union([CommitId, z.literal('none')]),
});
export type PrunedAttempt = z.infer<typeof PrunedAttemptSchema>;

/**
 * A prune record (`statecraft prune`): the workspaces and branches of concluded runs removed from
 * the target repository. Records and kept files are never removed; this says which of the
 * repository's places the earlier records name are gone, and why doctor does not miss them.
 */
export const PruneRecordSchema = z.strictObject({
  prev: z.union([z.literal('genesis'), Sha256Hex]),
  seq: z.int().nonnegative(),
  format: z.literal(1),
  at: z.iso.datetime(),
  kind: z.literal('prune'),
  removed: z.array(PrunedAttemptSchema),
});
export type PruneRecord = z.infer<typeof PruneRecordSchema>;
