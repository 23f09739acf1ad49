import * as z from 'zod';

/**
 * What command coverage does not see, in words (R9.3). Every rendering of a verdict shows both,
 * and every record carries them, so no reader takes `direct` for "complete".
 */
export const COVERAGE_LIMITS = [
  'A program run by another program (a script, a build tool, a test runner) is not seen: only the first word of each check command is compared.',
  'The allowance is compared, not enforced: nothing stops the checks from running a program the allowance omits.',
] as const;

export const CoverageLimitsSchema = z.tuple([z.string().min(1), z.string().min(1)]);
export type CoverageLimits = z.infer<typeof CoverageLimitsSchema>;

/** A fresh copy of the two limits, for a record or an answer. */
export function coverageLimits(): CoverageLimits {
  return [COVERAGE_LIMITS[0], COVERAGE_LIMITS[1]];
}
