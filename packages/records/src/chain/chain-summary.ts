import * as z from 'zod';
import { CountSchema, InterruptionCauseSchema, OutcomeSchema, QualificationVerdictSchema, RecordedCostSchema, Sha256HexSchema } from '@statecraft/adapter';
import { AcceptanceReasonSchema, AcceptanceVerdictSchema } from './acceptance-record.js';
import { IntentRecordSchema, LinkSchema } from './record-schemas.js';
import { readWholeRecord, verifyChainWith, type ChainEntry, type ChainOpening, type LineReading, type VerifyOptions } from './open-chain.js';
import { compileSummaryCheck, summaryCheckSpec } from './summary-fast-check.js';
import { rebuildWorkerRecords, summaryReadingSetup, type WorkerBatchReading } from './summary-reading-on-worker.js';
import { leadingFieldsFinder } from './leading-fields.js';

const link = { ...LinkSchema.shape, ...IntentRecordSchema.pick({ runId: true, attempt: true }).shape };

/** The leading fields of each record kind: everything `run list` shows. */
export const ChainSummarySchema = z.discriminatedUnion('kind', [
  z.strictObject({
    ...link,
    kind: z.literal('intent'),
    adapter: IntentRecordSchema.shape.adapter,
    qualification: QualificationVerdictSchema,
  }),
  z.strictObject({
    ...link,
    kind: z.literal('outcome'),
    intent: Sha256HexSchema,
    outcome: OutcomeSchema,
    cause: InterruptionCauseSchema,
    refusalCount: CountSchema,
    cost: RecordedCostSchema,
    timedOut: z.boolean(),
  }),
  z.strictObject({
    ...link,
    kind: z.literal('acceptance'),
    outcome: z.string().regex(/^[0-9a-f]{64}$/),
    verdict: AcceptanceVerdictSchema,
    reason: AcceptanceReasonSchema,
  }),
  z.strictObject({
    ...link,
    kind: z.literal('land'),
    acceptance: Sha256HexSchema,
  }),
  // A prune names many runs, in its body: its leading fields are its link alone.
  z.strictObject({ ...LinkSchema.shape, kind: z.literal('prune') }),
  // A selection ranks a run's attempts in its body: its leading fields are its link and run.
  z.strictObject({ ...LinkSchema.shape, kind: z.literal('selection'), runId: IntentRecordSchema.shape.runId }),
]);
export type ChainSummary = z.infer<typeof ChainSummarySchema>;

/** The quick check's data, read from the schema once: this thread's check and the worker's are built from it. */
const summarySpec = summaryCheckSpec(ChainSummarySchema);
/** Accepts only what the schema accepts: most summaries pass here and skip the schema's parse. */
const isCertainlySummary = compileSummaryCheck(summarySpec);

const leadingFieldsIn = leadingFieldsFinder();

/**
 * Reads a line's leading fields only: `run list` over 100,000 attempts must take under two
 * seconds, and parsing every posture and result would not. The link is still checked over the
 * whole line's bytes (open-chain.ts), so nothing read this way can differ from what was appended.
 * The keys are searched in a decoded prefix, not the buffer: a buffer search crosses into C++ per
 * call, and at 200,000 lines that crossing cost more than the parse (decision 0022).
 */
function readLeadingFields(line: Buffer): LineReading<ChainSummary> {
  const leading = leadingFieldsIn(line, 0, line.length);
  if (leading === undefined) return { kind: 'not-a-record', detail: 'its leading fields could not be found' };
  let json: unknown;
  try {
    json = JSON.parse(`${leading}}`);
  } catch {
    return { kind: 'not-json' };
  }
  if (isCertainlySummary(json)) return { kind: 'read', record: json as ChainSummary };
  const parsed = ChainSummarySchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return { kind: 'not-a-record', detail: first === undefined ? 'invalid' : `field "${first.path.join('.')}": ${first.message}` };
  }
  return { kind: 'read', record: parsed.data };
}

/**
 * Opens a chain for listing: every link verified over the whole line, each record read by its
 * leading fields and, with `onEntry`, handed over as it is verified rather than kept — except the last, which no later link vouches for: it is read whole, so an
 * edit to its leading fields that its body contradicts is refused here as in `run show` (R8.4).
 */
export function openChainSummaries(path: string, onEntry?: (entry: ChainEntry<ChainSummary>) => void): Promise<ChainOpening<ChainSummary>> {
  const options = onEntry === undefined ? { onWorker: summariesOnWorker() } : { entries: 'none' as const, onEntry, onWorker: summariesOnWorker() };
  return verifyChainWith(path, readSummaryLine, options);
}

/**
 * The summary reading the hashing worker shares over a long chain: it reads the first lines of
 * each batch by their leading fields, as readSummaryLine does (summary-reading-on-worker.ts).
 */
export function summariesOnWorker(): NonNullable<VerifyOptions<ChainSummary>['onWorker']> {
  return {
    setup: summaryReadingSetup(summarySpec),
    rebuild: (reading: WorkerBatchReading) => rebuildWorkerRecords<ChainSummary>(summarySpec, reading),
  };
}

/** One line as `run list` reads it: its leading fields, or the whole record if it is the last. */
export function readSummaryLine(line: Buffer, isLast: boolean): LineReading<ChainSummary> {
  if (isLast) {
    const whole = readWholeRecord(line);
    if (whole.kind !== 'read') return whole;
  }
  return readLeadingFields(line);
}
