import type { CoverageDigests, CoverageInputName } from './assess-coverage.js';

export type ReadingComparison = { kind: 'same' } | { kind: 'drifted'; inputs: CoverageInputName[]; message: string };

/**
 * Compares the planning reading (working tree) with the launch reading (base commit) (R9.4).
 * The suite-plan digest covers the Verification commands only, so an uncommitted edit elsewhere
 * in the spec is not drift; any change to the declaration file is.
 */
export function compareReadings(plan: { digests: CoverageDigests }, launch: { digests: CoverageDigests }): ReadingComparison {
  const inputs: CoverageInputName[] = [];
  if (plan.digests.allowance !== launch.digests.allowance) inputs.push('allowance');
  if (plan.digests.suitePlan !== launch.digests.suitePlan) inputs.push('suite plan');
  if (inputs.length === 0) return { kind: 'same' };
  const details = inputs.map((name) => {
    const key = name === 'allowance' ? 'allowance' : 'suitePlan';
    return `${name} (${plan.digests[key]} in the working tree, ${launch.digests[key]} at the base commit)`;
  });
  return { kind: 'drifted', inputs, message: driftMessage(details) };
}

/** One sentence naming what drifted and what to do; shared with a launch reading that refused. */
export function driftMessage(details: readonly string[]): string {
  return (
    `command coverage drifted between planning and launch: ${details.join('; ')}. ` +
    'The launch reads the base commit, not the working tree: commit the change, or undo it. ' +
    'Refused before spawn, nothing appended.'
  );
}
