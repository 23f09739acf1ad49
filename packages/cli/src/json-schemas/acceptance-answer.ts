import * as z from 'zod';
import { BoundaryRecordSchema, NotRecordedSchema } from '@statecraft/adapter';
import { AcceptanceRecordSchema, CandidateSchema, CheckOutputSchema, CheckRunSchema, ReceiptSchema } from '@statecraft/records';

const record = AcceptanceRecordSchema.shape;

/**
 * The acceptance of one attempt as an operator reads it (packages/acceptance/src/acceptance-view.ts):
 * the body of `accept --json`, and `acceptance` in `run --json` and `run show --json` (R13). Check
 * outputs are shown with absolute paths. Fields are only ever added, never renamed.
 */
export const AcceptanceViewSchema = z.strictObject({
  verdict: record.verdict,
  reason: record.reason,
  explanation: record.explanation,
  /** The acceptance record's line and digest; `derived` for an attempt not completed and never judged (R13.1). */
  record: z.union([z.strictObject({ line: z.int().positive(), sha256: z.string(), at: z.iso.datetime() }), z.literal('derived')]),
  candidate: z.union([CandidateSchema, NotRecordedSchema]),
  suite: record.suite,
  checks: z.array(CheckRunSchema.omit({ exit: true })),
  checksNotRun: record.checksNotRun,
  authority: z.strictObject({ paths: z.union([z.array(z.string().min(1)), NotRecordedSchema]), touched: z.array(z.string().min(1)) }),
  afterSuite: record.afterSuite,
  attemptRefusalCount: record.attemptRefusalCount,
  policyDigest: z.string().min(1),
  deadlines: z.union([record.deadlines, NotRecordedSchema]),
  /** The evidence boundary the checks ran under (R12, R13.3); `not-recorded` when no check was started. */
  boundary: z.union([BoundaryRecordSchema, NotRecordedSchema]),
  receipt: z.union([ReceiptSchema, z.null()]),
  receiptFile: z.union([CheckOutputSchema, z.literal('none')]),
  /** The receipt's signature kept beside it (`receipt.sigstore.json`, a Sigstore bundle); absent when unsigned. */
  receiptSignature: CheckOutputSchema.optional(),
  receiptState: z.enum(['current', 'stale', 'none']),
});

/** `accept --json`: the acceptance with the run and attempt it judged, or why nothing was judged. */
export const AcceptAnswerSchema = z.union([
  AcceptanceViewSchema.extend({ runId: z.string().min(1), attempt: z.int().positive(), target: z.string().min(1) }),
  z.strictObject({ refused: z.strictObject({ reason: z.string().min(1), message: z.string().min(1) }) }),
  z.strictObject({ failed: z.strictObject({ path: z.string().min(1), message: z.string().min(1) }) }),
]);
