import * as z from 'zod';

/**
 * The closed capability vocabulary (R2.1). Adding a token is a change to this file and to
 * docs/requirements.md, never configuration; a test asserts there are exactly six.
 */
export const CAPABILITY_TOKENS = ['tool-allowlist', 'turn-limit', 'workspace-write', 'hook-enforcement', 'cost-report', 'structured-refusals'] as const;

export const CapabilityTokenSchema = z.enum(CAPABILITY_TOKENS);
export type CapabilityToken = z.infer<typeof CapabilityTokenSchema>;

/** A list of tokens with no repeats: a repeated token is a mistake worth refusing, not folding. */
export const CapabilityListSchema = z
  .array(CapabilityTokenSchema)
  .refine((tokens) => new Set(tokens).size === tokens.length, { message: 'a capability token is listed twice' });
