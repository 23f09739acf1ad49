import type { CoverageInputName } from './assess-coverage.js';
import { compareReadings, driftMessage } from './compare-readings.js';
import { describeMissingPrograms, readCoverageAt, type CoverageRefusal, type PlannedCoverage } from './assess-reading.js';

export type LaunchCoverage =
  /** Record `coverage` under `posture.coverage`: the launch reading is the recorded one (R9.4). */
  | { kind: 'ready'; coverage: PlannedCoverage['coverage'] }
  /** An input differs from the planning reading; refuse the launch naming it. */
  | { kind: 'drifted'; inputs: CoverageInputName[]; message: string }
  | CoverageRefusal;

/**
 * The second reading (R9.4): both inputs as git holds them at the base commit, compared with the
 * planning reading. An input that read at planning but cannot be read at the base (a spec not
 * yet committed, a declaration malformed only at the base) has drifted too, and is named.
 */
export async function checkCoverageAtLaunch(input: {
  repository: string;
  spec?: string | undefined;
  /** A full object name, resolved at planning (plan.baseCommit). */
  baseCommit: string;
  adapterCommands: readonly string[];
  plan: PlannedCoverage;
}): Promise<LaunchCoverage> {
  const launch = await readCoverageAt({
    repository: input.repository,
    spec: input.spec,
    // Resolved to its full object name at planning (resolve-target.ts): not asked of git again.
    source: { kind: 'commit', commit: input.baseCommit, resolved: true },
    adapterCommands: input.adapterCommands,
  });
  if (launch.kind === 'refused') {
    if (launch.input === 'repository') return launch;
    return { kind: 'drifted', inputs: [launch.input], message: driftMessage([`${launch.input}: ${launch.message}`]) };
  }
  const comparison = compareReadings(input.plan, launch);
  if (comparison.kind === 'drifted') return comparison;
  // Same digests as a plan that was not refused, so this needs a change in the adapter's commands.
  if (launch.coverage.verdict === 'refused') {
    return { kind: 'refused', input: 'allowance', reason: 'missing-programs', message: describeMissingPrograms(launch.coverage), coverage: launch.coverage };
  }
  return { kind: 'ready', coverage: launch.coverage };
}
