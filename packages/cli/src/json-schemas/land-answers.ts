import * as z from 'zod';
import { LandMethodSchema, PrunedAttemptSchema } from '@statecraft/records';

const CommitId = z.string().regex(/^[0-9a-f]{40,64}$/);

/** `land --json`: the attempt landed, how, and the land record appended. */
export const LandAnswerSchema = z.strictObject({
  target: z.string().min(1),
  runId: z.string().min(1),
  attempt: z.int().positive(),
  candidate: CommitId,
  /** The operator's branch (a full ref), where it stood before, and the commit it points at now. */
  branch: z.string().min(1),
  before: CommitId,
  commit: CommitId,
  method: LandMethodSchema,
  receipt: z.strictObject({ path: z.string().min(1), sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
  record: z.strictObject({ line: z.int().positive(), sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
});

/** `prune --json`: what was removed and what was kept, and the prune record, if anything was removed. */
export const PruneAnswerSchema = z.strictObject({
  target: z.string().min(1),
  removed: z.array(PrunedAttemptSchema),
  /** Runs left in place, each with why: `not-concluded`, `newer`, `accepted`, `landed-only-here`. */
  kept: z.array(z.strictObject({ runId: z.string().min(1), why: z.enum(['not-concluded', 'newer', 'accepted', 'landed-only-here']) })),
  record: z.union([z.strictObject({ line: z.int().positive(), sha256: z.string().regex(/^[0-9a-f]{64}$/) }), z.literal('none')]),
});
