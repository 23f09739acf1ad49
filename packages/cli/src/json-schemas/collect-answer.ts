import * as z from 'zod';
import { RankKeySchema } from '@statecraft/records';

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

/** `statecraft collect --json`: the group's attempts ranked best first, each bundle refused and why, and the selection record. */
export const CollectAnswerSchema = z.strictObject({
  target: z.string().min(1),
  group: z.string().min(1),
  baseCommit: z.string().regex(/^[0-9a-f]{40,64}$/),
  rule: z.strictObject({ version: z.int().positive() }),
  ranked: z.array(
    z.strictObject({
      /** The bundle, as given. */
      bundle: z.string().min(1),
      /** The sha256 of its manifest, as the selection record holds it. */
      digest: Sha256,
      index: z.int().nonnegative(),
      runId: z.string().min(1),
      attempt: z.int().positive(),
      key: RankKeySchema,
      chosen: z.boolean(),
    }),
  ),
  refused: z.array(z.strictObject({ bundle: z.string().min(1), why: z.string().min(1) })),
  record: z.strictObject({ line: z.int().positive(), sha256: Sha256 }),
});
