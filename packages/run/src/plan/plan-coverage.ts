import type { CoverageVerdict } from '../posture.js';

export interface CoverageInput {
  targetPath: string;
  /** The spec the run works from (`--spec`), when one was given. */
  spec: string | undefined;
  /** The adapter manifest's `requiresCommands` (half of the allowance, R9.1). */
  requiresCommands: readonly string[];
}

export type CoveragePlanning = { kind: 'checked'; coverage: CoverageVerdict } | { kind: 'refused'; message: string; detail: unknown };

/**
 * The seam where command coverage (R9) plugs into planning. Until it lands the verdict is
 * `not-checked`, recorded as such on every attempt — never `direct`, never silently absent.
 */
export function planCommandCoverage(input: CoverageInput): Promise<CoveragePlanning> {
  return Promise.resolve({
    kind: 'checked',
    coverage: {
      verdict: 'not-checked',
      reason: input.spec === undefined ? 'no spec was given and the coverage check is not wired yet' : 'the coverage check is not wired yet',
    },
  });
}
