import { z } from 'zod';
import { RecordTimeSchema } from '../schema-pieces.js';
import { ProviderIdentitySchema } from '../protocol/events.js';
import { ProtocolVersionSchema } from '../protocol/version.js';
import { AdapterIdentitySchema } from '../result.js';

/** The kind of evidence a case rests on (R3.1); `none` only for a case that ran nothing. */
export const CaseEvidenceSchema = z.enum(['live', 'replayed', 'fixture', 'none']);

export const CaseReportSchema = z.strictObject({
  row: z.int().positive(),
  title: z.string().min(1),
  status: z.enum(['pass', 'fail', 'not-run']),
  evidence: CaseEvidenceSchema,
  detail: z.string(),
});
export type CaseReport = z.infer<typeof CaseReportSchema>;

/** The provider binary qualified with the adapter (the pair, R3.1), or `none`. */
export const QualifiedProviderSchema = z.union([ProviderIdentitySchema, z.literal('none')]);
export type QualifiedProvider = z.infer<typeof QualifiedProviderSchema>;

/** One run of the negative suite against one adapter (and provider, if it fronts one). */
export const SuiteReportSchema = z.strictObject({
  /** Every case passed; `not-run` is not a pass. */
  passed: z.boolean(),
  suiteVersion: z.string().min(1),
  protocol: ProtocolVersionSchema,
  adapter: AdapterIdentitySchema,
  provider: QualifiedProviderSchema,
  driver: z.string().min(1),
  /**
   * The evidence boundary the suite ran the adapter under (R12): `bwrap` as `run` does, or `none`;
   * `not-recorded` for a report made before the boundary existed.
   */
  boundary: z.enum(['bwrap', 'none', 'not-recorded']).default('not-recorded'),
  cases: z.array(CaseReportSchema),
  startedAt: RecordTimeSchema,
  endedAt: RecordTimeSchema,
});
export type SuiteReport = z.infer<typeof SuiteReportSchema>;
