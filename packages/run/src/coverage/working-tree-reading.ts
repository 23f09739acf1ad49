import { planCoverageAt, type PlannedCoverage } from './assess-reading.js';
import type { CoverageVerdict } from '@statecraft/records';

export interface CoverageInput {
  targetPath: string;
  /** The spec the run works from (`--spec`), when one was given. */
  spec: string | undefined;
  /** The adapter manifest's `requiresCommands` (half of the allowance, R9.1). */
  requiresCommands: readonly string[];
}

export type CoveragePlanning =
  /** `reading` keeps the planning digests: launch compares the base commit's against them (R9.4). */
  { kind: 'checked'; coverage: CoverageVerdict; reading: PlannedCoverage } | { kind: 'refused'; message: string; detail: unknown };

/**
 * Command coverage at planning (R9): the spec and `.statecraft/environment.json` as the working
 * tree holds them, compared with the allowance. A refusal (a missing program, a malformed
 * declaration, a spec without its Verification block) exits 2, nothing appended, nothing spawned.
 */
export async function planCommandCoverage(input: CoverageInput): Promise<CoveragePlanning> {
  const plan = await planCoverageAt({
    repository: input.targetPath,
    spec: input.spec,
    source: { kind: 'working-tree' },
    adapterCommands: input.requiresCommands,
  });
  if (plan.kind === 'refused') {
    const message = plan.reason === 'missing-programs' ? plan.message : `${plan.message}\nrefused before spawn, nothing appended`;
    return { kind: 'refused', message, detail: { input: plan.input, reason: plan.reason, coverage: plan.coverage ?? 'not-compared' } };
  }
  return { kind: 'checked', coverage: plan.coverage, reading: plan };
}
