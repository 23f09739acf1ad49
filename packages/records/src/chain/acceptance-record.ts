import * as z from 'zod';
import { BoundaryRecordSchema, ContainmentSchema, ExitSchema, NotRecordedSchema, SurvivorSchema } from '@statecraft/adapter';
import { ReceiptSchema } from '../receipt.js';
import { EnvironmentRecordSchema } from '@statecraft/adapter';
import { CandidateSchema } from '../candidate.js';

const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);
const CommitId = z.string().regex(/^[0-9a-f]{40,64}$/);
const Digest = z.string().regex(/^sha256:[0-9a-f]{64}$/);

/** The verdicts of acceptance, a closed set (R13.4). */
export const AcceptanceVerdictSchema = z.enum(['accepted', 'failed', 'no-acceptance', 'interrupted', 'authority-change', 'not-attempted']);
export type AcceptanceVerdict = z.infer<typeof AcceptanceVerdictSchema>;

/** Why, one code per situation; each belongs to exactly one verdict (see VERDICT_OF_REASON). */
export const AcceptanceReasonSchema = z.enum([
  'every-check-passed',
  'check-failed',
  'no-suite',
  'policy-unreadable',
  'no-candidate',
  'candidate-unavailable',
  'check-not-started',
  'check-timed-out',
  'check-output-bound',
  'suite-deadline',
  'cancelled',
  'head-moved',
  'tree-dirty',
  'authority-touched',
  'link-outside-candidate',
  'state-directory-in-candidate',
  'attempt-refused',
  'attempt-interrupted',
  'attempt-failed',
  'attempt-cancelled',
  'attempt-changed-nothing',
]);
export type AcceptanceReason = z.infer<typeof AcceptanceReasonSchema>;

/** Each reason's verdict: a record whose pair disagrees is not a record. */
export const VERDICT_OF_REASON: Readonly<Record<AcceptanceReason, AcceptanceVerdict>> = {
  'every-check-passed': 'accepted',
  'check-failed': 'failed',
  'no-suite': 'no-acceptance',
  'policy-unreadable': 'no-acceptance',
  'no-candidate': 'no-acceptance',
  'candidate-unavailable': 'no-acceptance',
  'check-not-started': 'no-acceptance',
  'check-timed-out': 'no-acceptance',
  // Stopped at the keep bound, as at a deadline: the check did not run to its end.
  'check-output-bound': 'no-acceptance',
  'suite-deadline': 'no-acceptance',
  cancelled: 'no-acceptance',
  'head-moved': 'interrupted',
  'tree-dirty': 'interrupted',
  'authority-touched': 'authority-change',
  // The candidate's bytes include what a link of it reaches outside its tree: it fails, unjudged by its suite.
  'link-outside-candidate': 'failed',
  // statecraft makes and removes the agents' workspaces and the checks' worktrees there: a candidate never holds it.
  'state-directory-in-candidate': 'failed',
  'attempt-refused': 'not-attempted',
  'attempt-interrupted': 'not-attempted',
  'attempt-failed': 'not-attempted',
  'attempt-cancelled': 'not-attempted',
  // Completed, but its candidate holds the very tree its workspace started with: nothing of its own to judge.
  'attempt-changed-nothing': 'not-attempted',
};

/** A check's output kept beside the chain: path relative to the target directory, digest, size. */
export const CheckOutputSchema = z.strictObject({ path: z.string().min(1), sha256: Sha256Hex, bytes: z.int().nonnegative() });
export type CheckOutput = z.infer<typeof CheckOutputSchema>;

/** One check that was started, as it ended (R13.3). */
export const CheckRunSchema = z.strictObject({
  command: z.string().min(1),
  /** The first word of a simple command (R9.2), or `/bin/sh`. */
  program: z.string().min(1),
  /** Run through `/bin/sh -c`: the command is not simple (R9.2). */
  shell: z.boolean(),
  /** `null` when it ended by a signal or its exit was not observed (killed at its deadline). */
  exitCode: z.int().nullable(),
  exit: ExitSchema,
  timedOut: z.boolean(),
  durationMs: z.number().nonnegative(),
  stdout: CheckOutputSchema,
  stderr: CheckOutputSchema,
  survivors: z.array(SurvivorSchema),
});
export type CheckRun = z.infer<typeof CheckRunSchema>;

/** Where the suite came from, read at the base (R13.3): the spec's Verification block, or the declaration. */
const SuiteSourceSchema = z.union([
  z.strictObject({ kind: z.enum(['spec', 'declaration']), path: z.string().min(1), baseCommit: CommitId, commands: z.array(z.string().min(1)) }),
  z.literal('none'),
  NotRecordedSchema,
]);

/**
 * An acceptance record (R13): appended under the repository lock, hash-linked like the others,
 * naming the outcome line it judged. `accepted` carries the receipt; every other verdict carries
 * `receipt: "none"` (R13.4).
 */
export const AcceptanceRecordSchema = z.strictObject({
  prev: z.union([z.literal('genesis'), Sha256Hex]),
  seq: z.int().nonnegative(),
  format: z.literal(1),
  at: z.iso.datetime(),
  kind: z.literal('acceptance'),
  runId: z.string().min(1),
  attempt: z.int().positive(),
  /** The sha256 of the outcome line this acceptance judges. */
  outcome: Sha256Hex,
  verdict: AcceptanceVerdictSchema,
  reason: AcceptanceReasonSchema,
  candidate: z.union([CandidateSchema, NotRecordedSchema]),
  /** The reason in a sentence, naming the check, the path or the count. */
  explanation: z.string().min(1),
  /** For `attempt-refused`: the attempt's refusal count (R13.1); `not-recorded` otherwise. */
  attemptRefusalCount: z.union([z.int().nonnegative(), NotRecordedSchema]),
  suite: SuiteSourceSchema,
  checks: z.array(CheckRunSchema),
  /** Checks of the suite that did not run to their end: not started, or never reached (never a pass). */
  checksNotRun: z.int().nonnegative(),
  authority: z.union([z.strictObject({ paths: z.array(z.string().min(1)), touched: z.array(z.string().min(1)) }), NotRecordedSchema]),
  /** After the suite: whether the worktree's HEAD moved and which paths the checks left dirty. */
  afterSuite: z.union([z.strictObject({ head: CommitId, headMoved: z.boolean(), dirtyPaths: z.array(z.string().min(1)) }), NotRecordedSchema]),
  policyDigest: z.union([Digest, NotRecordedSchema]),
  deadlines: z.strictObject({ checkMs: z.int().positive(), suiteMs: z.int().positive() }),
  containment: z.union([ContainmentSchema, NotRecordedSchema]),
  environment: z.union([EnvironmentRecordSchema, NotRecordedSchema]),
  /**
   * The evidence boundary the checks ran under (R12, R13.3), as an attempt's posture records it;
   * `not-recorded` when no check was started. Absent only from records written before checks ran in it.
   */
  boundary: z.union([BoundaryRecordSchema, NotRecordedSchema]).optional(),
  receipt: z.union([ReceiptSchema, z.literal('none')]),
  /** The receipt kept as a file beside the chain, with its digest. */
  receiptFile: z.union([CheckOutputSchema, z.literal('none')]),
  /**
   * The receipt's signature kept beside it (`receipt.sigstore.json`, a Sigstore bundle), with its
   * digest: present when a signing key signed the receipt, absent otherwise.
   */
  receiptSignature: CheckOutputSchema.optional(),
});
export type AcceptanceRecord = z.infer<typeof AcceptanceRecordSchema>;

/** The verdict agrees with its reason, and a receipt is present exactly when accepted. */
export function acceptanceRecordAgrees(record: AcceptanceRecord): boolean {
  const accepted = record.verdict === 'accepted';
  return VERDICT_OF_REASON[record.reason] === record.verdict && accepted === (record.receipt !== 'none') && accepted === (record.receiptFile !== 'none');
}
