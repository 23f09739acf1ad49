import * as z from 'zod';
import { CountSchema, Sha256DigestSchema, VerbatimObjectSchema } from '../schema-pieces.js';
import { CapabilityListSchema } from '../capabilities.js';
import { ProtocolVersionSchema } from './version.js';

/** Every event carries the protocol version and its position in the stream (R1.2: typed and ordered). */
const envelope = {
  protocol: ProtocolVersionSchema,
  /** 0 for the init event, then +1 per event; a gap or repeat is malformed. */
  seq: CountSchema,
};

/** "Not recorded" is an explicit value, never `undefined` (R8.3). */
export const NotRecordedSchema = z.literal('not-recorded');

export const ProviderIdentitySchema = z.strictObject({
  name: z.string().min(1),
  version: z.string().min(1),
  /** `sha256:<hex>` of the provider binary, or `not-recorded` when the adapter could not read it. */
  digest: z.union([Sha256DigestSchema, NotRecordedSchema]),
});
export type ProviderIdentity = z.infer<typeof ProviderIdentitySchema>;

/** What the adapter actually applied, beside what was requested (R2.4). */
export const InitEventSchema = z.strictObject({
  type: z.literal('init'),
  ...envelope,
  adapter: z.strictObject({ name: z.string().min(1), version: z.string().min(1) }),
  /** `none`: the adapter fronts no provider (e.g. the fixture adapter). */
  provider: z.union([ProviderIdentitySchema, z.literal('none')]),
  requested: z.strictObject({ capabilities: CapabilityListSchema }),
  applied: z.strictObject({
    capabilities: CapabilityListSchema,
    /** The tool set the session was offered, as the provider reported it. */
    tools: z.union([z.array(z.string()), NotRecordedSchema]),
    /** The allowlist in force; a provider that cannot report it says `not-recorded` (R10.3). */
    allowlist: z.union([z.array(z.string()), NotRecordedSchema]),
  }),
  /** Provider facts worth keeping (model, permission mode, cwd …), verbatim. */
  detail: VerbatimObjectSchema,
});
export type InitEvent = z.infer<typeof InitEventSchema>;

const ProgressEventSchema = z.strictObject({
  type: z.literal('progress'),
  ...envelope,
  /** A short provider-neutral kind, e.g. `message`, `tool-use`, `tool-result`, `hook`, `notice`. */
  kind: z.string().min(1),
  /** Tools this event invokes (empty when none): feeds the live status line. */
  tools: z.array(z.string()),
  detail: z.unknown(),
});

/** One refusal, carried verbatim; the supervisor counts these (R1.4), the adapter never does. */
export const RefusalEventSchema = z.strictObject({
  type: z.literal('refusal'),
  ...envelope,
  tool: z.union([z.string().min(1), NotRecordedSchema]),
  /** The provider's own record of the refusal, exactly as it gave it. */
  verbatim: z.unknown(),
});
export type RefusalEvent = z.infer<typeof RefusalEventSchema>;

/**
 * How the provider's session ended, translated into neutral terms by the adapter. The
 * supervisor maps this (with refusals, the deadline and stream diagnostics) onto an outcome.
 * `unmapped`: a terminal state nobody measured; never read as completion (R10.4).
 */
export const TerminalStateSchema = z.enum(['completed', 'turn-limit', 'provider-error', 'unmapped']);
export type TerminalState = z.infer<typeof TerminalStateSchema>;

/** The provider's own account of its ending, kept as a claim (R8.2), never as the outcome. */
export const ProviderClaimSchema = z.strictObject({
  /** The provider's word for its ending, e.g. `success`. */
  status: z.string().min(1),
  isError: z.union([z.boolean(), NotRecordedSchema]),
  reason: z.union([z.string().min(1), NotRecordedSchema]),
  /** Whatever else the provider said of its ending, every key as it said it. */
  detail: VerbatimObjectSchema,
});

const CostSchema = z.union([z.strictObject({ usd: z.number().nonnegative() }), z.literal('unknown')]);

export const ResultEventSchema = z.strictObject({
  type: z.literal('result'),
  ...envelope,
  terminal: TerminalStateSchema,
  claim: ProviderClaimSchema,
  /** Absent or `unknown` is recorded as `unknown`, never as zero (R4 row 5). */
  cost: CostSchema.optional(),
  turns: z.union([CountSchema, NotRecordedSchema]),
  usage: z.unknown().optional(),
});
type ResultEvent = z.infer<typeof ResultEventSchema>;

/** The adapter could not do its job (bad request, unknown scenario …). Terminal, like `result`. */
export const ErrorEventSchema = z.strictObject({
  type: z.literal('error'),
  ...envelope,
  code: z.string().min(1),
  message: z.string().min(1),
});
type ErrorEvent = z.infer<typeof ErrorEventSchema>;

export const EventSchema = z.discriminatedUnion('type', [InitEventSchema, ProgressEventSchema, RefusalEventSchema, ResultEventSchema, ErrorEventSchema]);
export type ProtocolEvent = z.infer<typeof EventSchema>;
export type TerminalEvent = ResultEvent | ErrorEvent;

export function isTerminalEvent(event: ProtocolEvent): event is TerminalEvent {
  return event.type === 'result' || event.type === 'error';
}
