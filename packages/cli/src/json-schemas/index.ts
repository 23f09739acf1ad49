import * as z from 'zod';
import { ErrorDocumentSchema } from './error-documents.js';
import { RunAnswerSchema, RunListAnswerSchema, RunShowAnswerSchema } from './attempt-account.js';
import {
  QualificationsCheckAnswerSchema,
  QualificationsListAnswerSchema,
  QualificationsShowAnswerSchema,
  QualifyAnswerSchema,
} from './qualification-answers.js';
import { EnvPlanAnswerSchema } from './env-plan-answer.js';
import { DoctorAnswerSchema } from './doctor-answer.js';
import { AcceptAnswerSchema } from './acceptance-answer.js';
import { RunDiffAnswerSchema } from './run-diff-answer.js';
import { RunLogAnswerSchema } from './run-log-answer.js';
import { RunReconcileAnswerSchema } from './run-reconcile-answer.js';
import { LandAnswerSchema, PruneAnswerSchema } from './land-answers.js';
import { ExportAnswerSchema, VerifyAnswerSchema } from './bundle-answers.js';
import { KeysGenerateAnswerSchema, KeysShowAnswerSchema } from './keys-answers.js';

export * from './error-documents.js';
export * from './attempt-account.js';
export * from './run-attempts-answer.js';
export * from './qualification-answers.js';
export * from './env-plan-answer.js';
export * from './doctor-answer.js';
export * from './acceptance-answer.js';
export * from './run-diff-answer.js';
export * from './run-log-answer.js';
export * from './run-reconcile-answer.js';
export * from './land-answers.js';
export * from './bundle-answers.js';
export * from './keys-answers.js';
export * from './selection-view.js';

/**
 * Each verb's answer under `--json` (R11). A new verb is one line here; a new field is one line in
 * its answer's schema. The published JSON Schema (packages/cli/schema/) is generated from these.
 */
export const VERB_ANSWERS = {
  run: RunAnswerSchema,
  'run-show': RunShowAnswerSchema,
  'run-list': RunListAnswerSchema,
  'run-diff': RunDiffAnswerSchema,
  'run-log': RunLogAnswerSchema,
  'run-reconcile': RunReconcileAnswerSchema,
  qualify: QualifyAnswerSchema,
  'qualifications-list': QualificationsListAnswerSchema,
  'qualifications-show': QualificationsShowAnswerSchema,
  'qualifications-check': QualificationsCheckAnswerSchema,
  'env-plan': EnvPlanAnswerSchema,
  doctor: DoctorAnswerSchema,
  accept: AcceptAnswerSchema,
  land: LandAnswerSchema,
  prune: PruneAnswerSchema,
  export: ExportAnswerSchema,
  verify: VerifyAnswerSchema,
  'keys-generate': KeysGenerateAnswerSchema,
  'keys-show': KeysShowAnswerSchema,
} as const;
export type Verb = keyof typeof VERB_ANSWERS;

/** What a verb may print on stdout under `--json`: its answer, or a refusal, failure or usage document. */
export function verbDocumentSchema(verb: Verb) {
  return z.union([VERB_ANSWERS[verb], ErrorDocumentSchema]);
}

/** The verb a command line names (`run show …` → `run-show`), or undefined for one that names none. */
export function verbOf(argv: readonly string[]): Verb | undefined {
  const [first, second] = argv;
  if (first === 'run')
    return second === 'show' || second === 'list' || second === 'diff' || second === 'log' || second === 'reconcile' ? `run-${second}` : 'run';
  if (first === 'qualifications' && (second === 'list' || second === 'show' || second === 'check')) return `qualifications-${second}`;
  if (first === 'env' && second === 'plan') return 'env-plan';
  if (first === 'keys' && (second === 'generate' || second === 'show')) return `keys-${second}`;
  if (first === 'qualify' || first === 'doctor' || first === 'accept' || first === 'land' || first === 'prune' || first === 'export' || first === 'verify')
    return first;
  return undefined;
}
