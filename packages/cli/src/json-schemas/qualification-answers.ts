import * as z from 'zod';
import {
  AdapterIdentitySchema,
  BoundaryPathSchema,
  CaseReportSchema,
  CountSchema,
  ProviderIdentificationSchema,
  QualificationVerdictSchema,
  Sha256DigestSchema,
  SuiteReportSchema,
} from '@statecraft/adapter';
import { QualificationRecordSchema } from '@statecraft/records';

/** A qualification record written to the product home: its id and where it is. */
const WrittenRecordSchema = QualificationRecordSchema.pick({ id: true }).extend({ path: z.string().min(1) });

/** A record's signature written beside it (`<id>.sigstore.json`), and the key that made it. */
const WrittenSignatureSchema = z.strictObject({ path: z.string().min(1), keyId: z.string().regex(/^[0-9a-f]{64}$/) });

/** `qualify --json` (R3, R4): every case's result, and the record written on a full pass (`null`: none). */
export const QualifyAnswerSchema = z.strictObject({
  passed: z.boolean(),
  ...QualificationRecordSchema.pick({ suiteVersion: true, adapter: true, provider: true, driver: true }).shape,
  /** The evidence boundary the suite ran the adapter under (R12). */
  boundary: SuiteReportSchema.shape.boundary.unwrap(),
  /**
   * Under `bwrap`: what the boundary hid from every attempt, as a run's posture records its profile
   * (the operator's home, /root and each home of /home, the product home). Absent under `none`.
   */
  hidden: z.array(BoundaryPathSchema).optional(),
  cases: z.array(CaseReportSchema),
  /** `signature`: present when a signing key signed the record. */
  record: WrittenRecordSchema.extend({ signature: WrittenSignatureSchema.optional() }).nullable(),
});

/** One record of `qualifications list`: the record's identity, without its cases. */
export const RecordSummarySchema = QualificationRecordSchema.pick({
  id: true,
  adapter: true,
  provider: true,
  suiteVersion: true,
  protocol: true,
  platform: true,
  date: true,
}).extend({
  path: z.string().min(1),
  cases: z.strictObject({ passed: CountSchema, total: CountSchema }),
});

/** `qualifications list --json` (R3.4); `unreadable`: files under qualifications/ that are not records, never skipped silently. */
export const QualificationsListAnswerSchema = z.strictObject({
  home: z.string().min(1),
  records: z.array(RecordSummarySchema),
  unreadable: z.array(z.strictObject({ path: z.string().min(1), message: z.string() })),
});

/** `qualifications show --json`: one record, whole. */
export const QualificationsShowAnswerSchema = z.strictObject({
  path: z.string().min(1),
  record: QualificationRecordSchema,
});

/**
 * The provider binary of a pair, as the operator named it and as its bytes digest, with its
 * identity — what a qualification compares: that digest combined with each identity file its
 * adapter's manifest declares, or why it cannot be identified (R3.1).
 */
export const NamedProviderSchema = z.union([
  z.strictObject({ executable: z.string().min(1), digest: Sha256DigestSchema, identity: ProviderIdentificationSchema }),
  z.literal('none'),
]);

/** `qualifications check --json` (R3.3): whether this exact binary (or pair) is qualified, and why. */
export const QualificationsCheckAnswerSchema = z.strictObject({
  verdict: QualificationVerdictSchema,
  reason: z.string().min(1),
  adapter: AdapterIdentitySchema,
  /** The manifest the binary was read with, and its digest: a qualification binds it (R2.2, R3.1). */
  manifest: z.strictObject({ path: z.string().min(1), digest: Sha256DigestSchema }),
  provider: NamedProviderSchema,
  record: WrittenRecordSchema.nullable(),
  /**
   * The signature of the record that matched this binary (or pair): `verified` by a trusted key,
   * `unsigned`, `untrusted` (signed by a key not trusted; not checked without one), `invalid` (the
   * reason names the field). Absent when no record matched.
   */
  signature: z
    .discriminatedUnion('status', [
      z.strictObject({ status: z.literal('verified'), keyId: z.string().min(1) }),
      z.strictObject({ status: z.literal('unsigned') }),
      z.strictObject({ status: z.literal('untrusted'), keyId: z.string().min(1) }),
      z.strictObject({ status: z.literal('invalid'), reason: z.string().min(1), keyId: z.string().min(1).optional() }),
    ])
    .optional(),
  /** The keys trusted (their ids): only a record one of them signed qualifies. Empty: trust not configured. */
  trustedKeys: z.array(z.string().min(1)).optional(),
});
