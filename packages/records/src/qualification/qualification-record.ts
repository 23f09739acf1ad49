import * as z from 'zod';
import { RecordTimeSchema } from '@statecraft/adapter';
import { ProtocolVersionSchema } from '@statecraft/adapter';
import { CaseReportSchema, QualifiedAdapterSchema, QualifiedProviderSchema, SuiteReportSchema } from '@statecraft/adapter';

/** A record's file name stem: safe as a path segment, readable by people. */
export const QualificationIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9.+-]*$/, { message: 'must be lower-case letters, digits and ". + -"' })
  .max(200)
  // `<id>.sigstore.json` beside a record is its signature, never a record of its own.
  .refine((id) => !id.endsWith('.sigstore'), { message: 'names the signature beside a record, not a record' });

const PlatformSchema = z.strictObject({
  os: z.string().min(1),
  arch: z.string().min(1),
  node: z.string().min(1),
});
export type Platform = z.infer<typeof PlatformSchema>;

/**
 * A recorded pass of the negative suite (R3.1). It binds the adapter's name, version and content
 * digest, and the digest of the manifest it ran with; the provider binary's name, version and
 * digest when the adapter fronts one (what is qualified is the pair); the suite and protocol
 * versions; the platform; the date; and every case's result with the evidence it rests on.
 * Written once, never rewritten.
 */
export const QualificationRecordSchema = z.strictObject({
  kind: z.literal('statecraft-qualification'),
  recordVersion: z.literal(1),
  id: QualificationIdSchema,
  adapter: QualifiedAdapterSchema,
  provider: QualifiedProviderSchema,
  suiteVersion: z.string().min(1),
  protocol: ProtocolVersionSchema,
  platform: PlatformSchema,
  /** When the suite finished, ISO 8601. */
  date: RecordTimeSchema,
  /** How behaviour was provoked (`fixture`, or the provider adapter's driver). */
  driver: z.string().min(1),
  /** The evidence boundary the pass was measured under (R12); `not-recorded` on records made before it. */
  boundary: SuiteReportSchema.shape.boundary,
  cases: z.array(CaseReportSchema).min(1),
});
export type QualificationRecord = z.infer<typeof QualificationRecordSchema>;
