import * as z from 'zod';
import { CountSchema, DurationMsSchema, EventCountsSchema, RecordedCostSchema, RecordTimeSchema, Sha256DigestSchema } from './schema-pieces.js';
import { CapabilityListSchema } from './capabilities.js';
import { NotRecordedSchema, ProviderClaimSchema, ProviderIdentitySchema, TerminalStateSchema } from './protocol/events.js';
import { REFUSAL_EXCERPT_COUNT, RefusalDigestSchema, RefusalExcerptEntrySchema } from './stream/refusal-tally.js';
import { InterruptionCauseSchema, OutcomeSchema } from './outcome.js';
import { ContainmentSchema, ExitSchema, StreamDiagnosticSchema, StreamDigestSchema, SurvivorSchema } from './supervise/attempt.js';

export const AdapterIdentitySchema = z.strictObject({
  name: z.string().min(1),
  version: z.string().min(1),
  /** `sha256:<hex>` of the adapter executable's bytes. */
  digest: Sha256DigestSchema,
});
export type AdapterIdentity = z.infer<typeof AdapterIdentitySchema>;

/**
 * The result the supervisor records for one attempt (R1.2): the outcome **it** classified,
 * beside what the provider claimed. Every absence is named, never left undefined (R8.3).
 */
export const AttemptResultSchema = z.strictObject({
  outcome: OutcomeSchema,
  cause: InterruptionCauseSchema,
  /** Derived from the refusal events of the trusted prefix (R1.4). */
  refusalCount: CountSchema,
  /**
   * The first refusals in stream order, verbatim (a long line cut): an excerpt, never all of them.
   * Every refusal is in the kept stream (R8.4), which `refusalDigest` vouches for.
   */
  refusals: z.array(RefusalExcerptEntrySchema).max(REFUSAL_EXCERPT_COUNT),
  refusalDigest: RefusalDigestSchema,
  providerClaim: z.union([ProviderClaimSchema, NotRecordedSchema]),
  /** The adapter's neutral reading of the provider's ending, or `adapter-error`. */
  terminal: z.union([TerminalStateSchema, z.literal('adapter-error'), NotRecordedSchema]),
  cost: RecordedCostSchema,
  /** The adapter's own `error` event, when it ended the stream with one (it could not do its job). */
  adapterError: z.union([z.strictObject({ code: z.string(), message: z.string() }), z.literal('none')]),
  turns: z.union([CountSchema, NotRecordedSchema]),
  timedOut: z.boolean(),
  streamDiagnostic: StreamDiagnosticSchema,
  capabilities: z.strictObject({
    required: CapabilityListSchema,
    preferred: CapabilityListSchema,
    declared: CapabilityListSchema,
    applied: z.union([CapabilityListSchema, NotRecordedSchema]),
    degraded: CapabilityListSchema,
    /** Declared by the manifest, not applied according to init (R2.4). */
    notApplied: CapabilityListSchema,
  }),
  unverifiableRefusalAccount: z.boolean(),
  adapter: AdapterIdentitySchema,
  provider: z.union([ProviderIdentitySchema, z.literal('none'), NotRecordedSchema]),
  /** Kept as evidence only: exit status supplies no success authority (R7.6). */
  exit: ExitSchema,
  containment: ContainmentSchema,
  survivors: z.array(SurvivorSchema),
  events: EventCountsSchema,
  stdout: StreamDigestSchema,
  stderr: StreamDigestSchema,
  startedAt: RecordTimeSchema,
  endedAt: RecordTimeSchema,
  durationMs: DurationMsSchema,
});
export type AttemptResult = z.infer<typeof AttemptResultSchema>;
