import type { AttemptResult, BoundaryRecord } from '@statecraft/adapter';
import { residualsFor, type EnvironmentRecord } from '@statecraft/environment';
import type { RunPlan } from '../plan/plan-run.js';
import type { Posture } from '../posture.js';

/** The posture known before the spawn, carried on the intent (R6): what was applied is not yet known. */
export function plannedPosture(plan: RunPlan, environment: EnvironmentRecord, boundary: BoundaryRecord): Posture {
  return {
    adapter: plan.adapter,
    qualification: plan.qualification,
    capabilities: {
      requested: { required: [...plan.negotiation.required], preferred: [...plan.negotiation.preferred] },
      declared: [...plan.manifest.capabilities],
      applied: 'not-recorded',
      degraded: [...plan.negotiation.degraded],
      notApplied: [],
      unverifiableRefusalAccount: plan.negotiation.unverifiableRefusalAccount,
    },
    environment,
    containment: plan.containment,
    boundary,
    permissions: { mode: plan.permissions },
    survivors: 'not-recorded',
    coverage: plan.coverage,
  };
}

/** The posture as the attempt ran it, carried on the outcome: applied tokens, containment used, survivors. */
export function concludedPosture(planned: Posture, result: Pick<AttemptResult, 'capabilities' | 'containment' | 'survivors'>): Posture {
  return {
    ...planned,
    capabilities: { ...planned.capabilities, applied: result.capabilities.applied, notApplied: result.capabilities.notApplied },
    // The residuals follow the mechanism that actually contained the attempt.
    environment: { ...planned.environment, residuals: residualsFor(result.containment.mechanism) },
    containment: result.containment,
    survivors: result.survivors,
  };
}
