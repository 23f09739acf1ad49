import * as z from 'zod';
import { BoundaryAvailabilitySchema } from '@statecraft/environment';
import { CountSchema, RecordTimeSchema } from '@statecraft/adapter';
import { IntentRecordSchema } from '@statecraft/records';

const attemptId = IntentRecordSchema.pick({ runId: true, attempt: true }).shape;

/** Something `doctor` found: what, where, and what it saw. It repairs nothing. */
export const FindingSchema = z.strictObject({
  kind: z.enum([
    'broken-chain',
    'unreadable-chain',
    'torn-tail',
    'dangling-intent',
    'orphaned-processes',
    'stale-lock',
    'home-not-directory',
    'home-unusable',
    'unexpected-entry',
    'chain-cut',
    'invalid-qualification-record',
    'unrecorded-attempt-files',
    'altered-acceptance-evidence',
    'unrecorded-acceptance-files',
    'altered-artifact',
    'missing-artifact',
    'outcome-disagrees-with-stream',
    'record-disagrees-with-kept-file',
    'target-name-disagrees',
    'checkpoint-missing',
    'missing-attempt-records',
    'target-name-unreadable',
    'evidence-elsewhere',
    'verdict-after-final-verdict',
    'second-outcome',
    'outcome-disagrees-with-intent',
    'run-id-malformed',
    'acceptance-disagrees-with-outcome',
    'workspace-git-changed',
  ]),
  /** The chain, lock or directory concerned. */
  path: z.string().min(1),
  message: z.string().min(1),
});

export const TargetExaminationSchema = z.strictObject({
  key: z.string().min(1),
  /** The repository these records belong to, as recorded; `not-recorded` when no attempt wrote it. */
  target: z.string().min(1),
  chain: z.string().min(1),
  state: z.enum(['verified', 'broken', 'unreadable', 'empty']),
  records: CountSchema,
  attempts: CountSchema,
  dangling: z.array(z.strictObject({ ...attemptId, startedAt: RecordTimeSchema, orphans: z.array(z.int().positive()) })),
  running: z.array(z.strictObject(attemptId)),
  /** Concluded attempts whose outcome was classified again from their kept, verified stream. */
  reclassified: CountSchema,
});

/** `doctor --json`: the product home and every chain in it, checked read-only. */
export const DoctorAnswerSchema = z.strictObject({
  home: z.string().min(1),
  exists: z.boolean(),
  targets: z.array(TargetExaminationSchema),
  findings: z.array(FindingSchema),
  /** Whether the evidence boundary (R12) can be established here, and why not: the machine's state, not a finding. */
  boundary: BoundaryAvailabilitySchema,
});
