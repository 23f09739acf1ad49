import { CapabilityTokenSchema, CAPABILITY_TOKENS, type CapabilityToken } from '@statecraft/adapter';
import { readContainmentOverride } from '@statecraft/environment';
import { readKeepBound } from '@statecraft/run';
import { UsageError } from '../errors.js';

/** Capability tokens, each named once: a token given twice is a slip the request could not hold. */
export function parseTokens(option: string, values: readonly string[]): CapabilityToken[] {
  const seen = new Set<string>();
  return values.map((value) => {
    const parsed = CapabilityTokenSchema.safeParse(value);
    if (!parsed.success) throw new UsageError(`${option} ${JSON.stringify(value)}: not a capability token`, `the tokens are: ${CAPABILITY_TOKENS.join(', ')}`);
    if (seen.has(value)) throw new UsageError(`${option} ${value}: given twice`, `name each capability once`);
    seen.add(value);
    return parsed.data;
  });
}

/**
 * STATECRAFT_CONTAINMENT and STATECRAFT_KEEP_BOUND read strictly before anything starts: a
 * misspelt value is the operator's slip (exit 3), named as STATECRAFT_BOUNDARY's is, not a failure
 * met halfway through planning or the first time a tee opens.
 */
export function checkSupervisionOverrides(): void {
  try {
    readContainmentOverride();
    readKeepBound();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
