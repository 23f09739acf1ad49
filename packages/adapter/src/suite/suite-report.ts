import * as z from 'zod';
import { RecordTimeSchema, Sha256DigestSchema } from '../schema-pieces.js';
import { NotRecordedSchema, ProviderIdentitySchema } from '../protocol/events.js';
import { ProtocolVersionSchema } from '../protocol/version.js';
import { AdapterIdentitySchema } from '../result.js';
import { IdentityFileDigestSchema } from '../qualification/provider-identity.js';

/** The kind of evidence a case rests on (R3.1); `none` only for a case that ran nothing. */
const CaseEvidenceSchema = z.enum(['live', 'replayed', 'fixture', 'none']);

export const CaseReportSchema = z.strictObject({
  row: z.int().positive(),
  title: z.string().min(1),
  status: z.enum(['pass', 'fail', 'not-run']),
  evidence: CaseEvidenceSchema,
  detail: z.string(),
});
export type CaseReport = z.infer<typeof CaseReportSchema>;

/**
 * The adapter a suite ran: its identity, and the digest of the manifest it ran with (the canonical
 * JSON of the validated manifest, read-manifest.ts). The manifest decides the tokens, the
 * environment passed and the managed paths (R2.2), so it is part of what is qualified (R3.1).
 * `not-recorded` on records made before manifests were bound: such a record vouches for no manifest.
 */
export const QualifiedAdapterSchema = AdapterIdentitySchema.extend({
  manifestDigest: z.union([Sha256DigestSchema, NotRecordedSchema]).default('not-recorded'),
});

/**
 * The provider qualified with the adapter (the pair, R3.1), or `none`. Its `digest` is the
 * provider's identity (provider-identity.ts): the executable's bytes, combined with the digest of
 * each identity file its adapter's manifest declares, which `identityFiles` lists (none declared:
 * the executable's digest alone; records made before they existed list none).
 */
export const QualifiedProviderSchema = z.union([
  ProviderIdentitySchema.extend({ identityFiles: z.array(IdentityFileDigestSchema).default([]) }),
  z.literal('none'),
]);
export type QualifiedProvider = z.infer<typeof QualifiedProviderSchema>;

/** One run of the negative suite against one adapter (and provider, if it fronts one). */
export const SuiteReportSchema = z.strictObject({
  /** Every case passed; `not-run` is not a pass. */
  passed: z.boolean(),
  suiteVersion: z.string().min(1),
  protocol: ProtocolVersionSchema,
  adapter: QualifiedAdapterSchema,
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
