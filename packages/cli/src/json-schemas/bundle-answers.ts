import * as z from 'zod';

const CheckNameSchema = z.enum(['files', 'links', 'outcome', 'receipt', 'qualification', 'signatures', 'candidate']);

/** `statecraft export --json`: where the bundle was written, what it holds, and each file the records name that could not be read. */
export const ExportAnswerSchema = z.strictObject({
  path: z.string().min(1),
  form: z.enum(['tar', 'directory']),
  runId: z.string().min(1),
  target: z.strictObject({ path: z.string().min(1), key: z.string().min(1) }),
  /** Every file the manifest lists, and their bytes together. */
  files: z.int().nonnegative(),
  bytes: z.int().nonnegative(),
  notExported: z.array(z.strictObject({ path: z.string().min(1), why: z.string() })),
});

/** `statecraft verify --json`: what holds and what does not, each finding naming the file and the field. */
export const VerifyAnswerSchema = z.strictObject({
  bundle: z.string().min(1),
  runId: z.string().min(1),
  target: z.strictObject({ path: z.string().min(1), key: z.string().min(1) }),
  /** The ids of the keys given to trust (--trust, STATECRAFT_TRUSTED_KEYS); empty when none is. */
  trustedKeys: z.array(z.string()),
  holds: z.array(z.strictObject({ check: CheckNameSchema, message: z.string() })),
  findings: z.array(
    z.strictObject({
      check: CheckNameSchema,
      /** Relative to the bundle. */
      file: z.string().min(1),
      /** The field, or `line N` of a file of lines; absent when the whole file is meant. */
      field: z.string().optional(),
      message: z.string(),
    }),
  ),
});
