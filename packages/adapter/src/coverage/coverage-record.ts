import * as z from 'zod';
import { CommitIdSchema, Sha256DigestSchema } from '../schema-pieces.js';
import { AllowanceSchema } from './allowance.js';
import { CommandReadingSchema } from './command-reading.js';
import { MissingProgramSchema } from './compare-coverage.js';
import { CoverageLimitsSchema, coverageLimits } from './limits.js';

const DigestSchema = Sha256DigestSchema;

/** Where both inputs were read (R9.4): the working tree at planning, the base commit at launch. */
const CoverageReadFromSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('working-tree') }),
  z.strictObject({ kind: z.literal('commit'), commit: CommitIdSchema }),
]);
export type CoverageReadFrom = z.infer<typeof CoverageReadFromSchema>;

const CoverageSpecSchema = z.strictObject({
  /** As given to `--spec`. */
  id: z.string().min(1),
  /** Repository-relative path the lookup found (`specs/<id>/spec.md` or `specs/<id>.md`). */
  path: z.string().min(1),
  /** `sha256:` of the whole spec file. */
  digest: DigestSchema,
});

/**
 * A run with a suite: its commands were read and compared (R9.2, R9.3) — the spec's Verification
 * commands, or, for a run without a spec, the declaration's `acceptance.checks` (R13.3).
 */
const CheckedCoverageSchema = z.strictObject({
  verdict: z.enum(['refused', 'partial', 'direct']),
  readFrom: CoverageReadFromSchema,
  /** `none` when the commands are the declaration's `acceptance.checks`. */
  spec: z.union([CoverageSpecSchema, z.literal('none')]),
  /**
   * Where the compared commands came from. Absent from records made before the declaration's
   * checks were compared: those read the spec.
   */
  checksFrom: z.enum(['spec', 'declaration']).optional(),
  /** `sha256:` of the compared commands only, so an edit elsewhere in the spec is not drift. */
  planDigest: DigestSchema,
  commands: z.array(CommandReadingSchema),
  allowance: AllowanceSchema,
  missing: z.array(MissingProgramSchema),
  notChecked: z.array(z.string()),
  limits: CoverageLimitsSchema,
});
export type CheckedCoverage = z.infer<typeof CheckedCoverageSchema>;

/** A run without a spec or declared checks: nothing to compare; the allowance is still recorded. */
const NotApplicableCoverageSchema = z.strictObject({
  verdict: z.literal('not-applicable'),
  readFrom: CoverageReadFromSchema,
  spec: z.literal('none'),
  allowance: AllowanceSchema,
  limits: CoverageLimitsSchema,
});

/** An attempt recorded before coverage existed: never read as covered. */
const NotCheckedCoverageSchema = z.strictObject({
  verdict: z.literal('not-checked'),
  reason: z.string().min(1),
  limits: CoverageLimitsSchema,
});

/** `posture.coverage` of an attempt record (R6, R9.4): the launch reading. */
export const RecordedCoverageSchema = z.discriminatedUnion('verdict', [CheckedCoverageSchema, NotApplicableCoverageSchema, NotCheckedCoverageSchema]);
export type RecordedCoverage = z.infer<typeof RecordedCoverageSchema>;

/** The placeholder `run` recorded before coverage was wired: `{ verdict: 'not-checked', reason }`. */
const OlderNotCheckedSchema = z.looseObject({ verdict: z.literal('not-checked'), reason: z.string().min(1).optional() });

/**
 * `posture.coverage` as a chain holds it (R6, R9.4): the launch reading, strict — or, in a record
 * written before the limits were recorded, the older `not-checked` placeholder, read as
 * `not-checked` with its reason kept. Records are never rewritten, so the reader keeps accepting
 * the older form; what is read, and what a writer may write, is a RecordedCoverage.
 */
export const StoredCoverageSchema = z.union([
  RecordedCoverageSchema,
  OlderNotCheckedSchema.transform((older) => notChecked(older.reason ?? 'nothing was compared for this attempt')),
]);

/**
 * Reads `posture.coverage` from a stored record: absent (written before coverage existed) is
 * `not-checked`, and so is a `not-checked` written before the limits were recorded (its reason
 * kept); anything else present must parse.
 */
export function readRecordedCoverage(value: unknown): { kind: 'read'; coverage: RecordedCoverage } | { kind: 'malformed'; error: z.ZodError } {
  if (value === undefined) {
    return { kind: 'read', coverage: notChecked('this attempt was recorded before command coverage existed; nothing was compared') };
  }
  const older = OlderNotCheckedSchema.safeParse(value);
  if (older.success) return { kind: 'read', coverage: notChecked(older.data.reason ?? 'nothing was compared for this attempt') };
  const parsed = RecordedCoverageSchema.safeParse(value);
  return parsed.success ? { kind: 'read', coverage: parsed.data } : { kind: 'malformed', error: parsed.error };
}

function notChecked(reason: string): RecordedCoverage {
  return { verdict: 'not-checked', reason, limits: coverageLimits() };
}
