import { z } from 'zod';
import { InterruptionCauseSchema, OutcomeSchema } from '@statecraft/adapter';
import { AcceptanceReasonSchema, AcceptanceVerdictSchema } from './acceptance-record.js';
import { readWholeRecord, verifyChainWith, type ChainOpening, type LineReading } from './open-chain.js';

const link = {
  prev: z.union([z.literal('genesis'), z.string().regex(/^[0-9a-f]{64}$/)]),
  seq: z.int().nonnegative(),
  format: z.literal(1),
  at: z.iso.datetime(),
  runId: z.string().min(1),
  attempt: z.int().positive(),
};

/** The leading fields of each record kind: everything `run list` shows. */
export const ChainSummarySchema = z.discriminatedUnion('kind', [
  z.strictObject({
    ...link,
    kind: z.literal('intent'),
    adapter: z.strictObject({ name: z.string().min(1), version: z.string().min(1) }),
    qualification: z.enum(['qualified', 'unqualified']),
  }),
  z.strictObject({
    ...link,
    kind: z.literal('outcome'),
    intent: z.string().regex(/^[0-9a-f]{64}$/),
    outcome: OutcomeSchema,
    cause: InterruptionCauseSchema,
    refusalCount: z.int().nonnegative(),
    cost: z.union([z.number().nonnegative(), z.literal('unknown')]),
    timedOut: z.boolean(),
  }),
  z.strictObject({
    ...link,
    kind: z.literal('acceptance'),
    outcome: z.string().regex(/^[0-9a-f]{64}$/),
    verdict: AcceptanceVerdictSchema,
    reason: AcceptanceReasonSchema,
  }),
]);
export type ChainSummary = z.infer<typeof ChainSummarySchema>;

/**
 * Where each kind's leading fields end. Every field before these keys is constrained (digests,
 * ISO times, run ids, enums, numbers, a manifest name and a semantic version) and can hold none
 * of these byte sequences, so their first occurrence is the real key.
 */
const LEADING_FIELDS_END: Record<string, Buffer> = {
  intent: Buffer.from(',"target":{'),
  outcome: Buffer.from(',"result":{'),
  acceptance: Buffer.from(',"candidate":'),
};
const KIND_AT = Buffer.from(',"kind":"');

/**
 * Reads a line's leading fields only: `run list` over 10,000 attempts must take under a second,
 * and parsing every posture and result would not. The link is still checked over the whole
 * line's bytes (open-chain.ts), so nothing read this way can differ from what was appended.
 */
function readLeadingFields(line: Buffer): LineReading<ChainSummary> {
  const kindAt = line.indexOf(KIND_AT);
  const kind = kindAt === -1 ? undefined : line.subarray(kindAt + KIND_AT.length, line.indexOf(0x22, kindAt + KIND_AT.length)).toString('latin1');
  const end = kind === undefined ? undefined : LEADING_FIELDS_END[kind];
  const cut = end === undefined ? -1 : line.indexOf(end);
  if (cut === -1) return { kind: 'not-a-record', detail: 'its leading fields could not be found' };
  let json: unknown;
  try {
    json = JSON.parse(`${line.subarray(0, cut).toString('utf8')}}`);
  } catch {
    return { kind: 'not-json' };
  }
  const parsed = ChainSummarySchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return { kind: 'not-a-record', detail: first === undefined ? 'invalid' : `field "${first.path.join('.')}": ${first.message}` };
  }
  return { kind: 'read', record: parsed.data };
}

/**
 * Opens a chain for listing: every link verified over the whole line, each record read by its
 * leading fields — except the last, which no later link vouches for: it is read whole, so an
 * edit to its leading fields that its body contradicts is refused here as in `run show` (R8.4).
 */
export function openChainSummaries(path: string): Promise<ChainOpening<ChainSummary>> {
  return verifyChainWith(path, (line, isLast) => {
    if (isLast) {
      const whole = readWholeRecord(line);
      if (whole.kind !== 'read') return whole;
    }
    return readLeadingFields(line);
  });
}
