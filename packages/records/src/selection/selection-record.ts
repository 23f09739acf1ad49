import * as z from 'zod';
import { CountSchema, RecordTimeSchema, Sha256HexSchema } from '@statecraft/adapter';
import { RankKeySchema } from './rank-key.js';

const AttemptNameSchema = z.strictObject({ runId: z.string().min(1), attempt: z.int().positive() });

/**
 * Where a collected attempt was read (`statecraft collect`): the sha256 of its bundle's manifest,
 * which names every file's digest, and its place in the run group. Absent for an attempt of this home.
 */
const SelectedBundleSchema = z.strictObject({
  digest: Sha256HexSchema,
  group: z.string().min(1),
  index: z.int().nonnegative(),
});
export type SelectedBundle = z.infer<typeof SelectedBundleSchema>;

/**
 * A selection record: the attempts of a run ranked by the rule of `rule.version`, each with the
 * key it was ranked on, and the one chosen (the first). Anyone can recompute it from the
 * attempts' own records (rank-attempts.ts); the agent's claims never enter it.
 */
export const SelectionRecordSchema = z.strictObject({
  prev: z.union([z.literal('genesis'), Sha256HexSchema]),
  seq: CountSchema,
  format: z.literal(1),
  at: RecordTimeSchema,
  kind: z.literal('selection'),
  runId: z.string().min(1),
  rule: z.strictObject({ version: z.int().positive() }),
  ranked: z.array(AttemptNameSchema.extend({ key: RankKeySchema, bundle: SelectedBundleSchema.optional() })).min(1),
  chosen: AttemptNameSchema,
});
export type SelectionRecord = z.infer<typeof SelectionRecordSchema>;
