import * as z from 'zod';

/**
 * The documents `--json` prints when a verb does not answer (errors.ts): a refusal (exit 2), a
 * failure (exit 4, naming the path when there is one) or a usage error (exit 3). Every verb's
 * document schema admits these beside its own answer.
 */
const next = { next: z.string().min(1).optional() };

export const RefusedDocumentSchema = z.strictObject({ refused: z.strictObject({ message: z.string().min(1), ...next }) });
export const FailedDocumentSchema = z.strictObject({ failed: z.strictObject({ path: z.string().min(1).nullable(), message: z.string().min(1), ...next }) });
export const UsageDocumentSchema = z.strictObject({ usage: z.strictObject({ message: z.string().min(1), ...next }) });

export const ErrorDocumentSchema = z.union([RefusedDocumentSchema, FailedDocumentSchema, UsageDocumentSchema]);
export type ErrorDocument = z.infer<typeof ErrorDocumentSchema>;
