import * as z from 'zod';
import { CommitIdSchema, CountSchema } from '@statecraft/adapter';

/** One path the candidate changed from the base, as git names it (the bytes of its name, not quoted). */
export const DiffFileSchema = z.strictObject({
  path: z.string().min(1),
  /** git's status letter: A added, M modified, D deleted, T type changed. */
  status: z.string().min(1),
  /** Lines added and removed; `binary` for a file git does not count in lines. */
  additions: z.union([CountSchema, z.literal('binary')]),
  deletions: z.union([CountSchema, z.literal('binary')]),
});

/** `statecraft run diff --json`: the attempt's candidate against its recorded base. */
export const RunDiffAnswerSchema = z.strictObject({
  target: z.string().min(1),
  runId: z.string().min(1),
  attempt: z.int().positive(),
  baseCommit: CommitIdSchema,
  /** The candidate compared, or why there is none: `not-recorded` for an attempt that did not complete, `not-identified` when git could not say. */
  candidate: z.union([
    z.strictObject({ state: z.literal('identified'), commit: CommitIdSchema, madeBy: z.string().min(1) }),
    z.strictObject({ state: z.enum(['not-identified', 'not-recorded']), reason: z.string().min(1) }),
  ]),
  files: z.array(DiffFileSchema),
  /** git's patch, as git wrote it (`--no-ext-diff --no-textconv`: no program the repository names is run); empty with no candidate. */
  patch: z.string(),
});
