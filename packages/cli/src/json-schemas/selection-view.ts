import * as z from 'zod';
import { CountSchema, RecordTimeSchema, Sha256HexSchema } from '@statecraft/adapter';
import { SelectionRecordSchema } from '@statecraft/records';

const RankedSchema = SelectionRecordSchema.shape.ranked;
const ChosenSchema = SelectionRecordSchema.shape.chosen;

/**
 * A run's selection as `run show` and the reviewer's page show it: the record (its line and
 * digest), the rule's version, each attempt's key in rank order, the chosen attempt, and the same
 * rule applied now to the attempts' records as they stand: `agrees`, or the order it gives (an
 * attempt judged after the selection was made ranks by its verdict now), or `other-rule` for a
 * selection made by a rule this statecraft does not know.
 */
export const SelectionViewSchema = z.strictObject({
  record: z.strictObject({ line: CountSchema, sha256: Sha256HexSchema, at: RecordTimeSchema }),
  rule: SelectionRecordSchema.shape.rule,
  ranked: RankedSchema,
  chosen: ChosenSchema,
  rankedNow: z.union([z.literal('agrees'), z.literal('other-rule'), z.strictObject({ ranked: RankedSchema, chosen: ChosenSchema })]),
});
export type SelectionView = z.infer<typeof SelectionViewSchema>;
