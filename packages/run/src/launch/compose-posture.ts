import type { BoundaryRecord } from '@statecraft/adapter';
import type { EnvironmentRecord } from '@statecraft/adapter';
import type { RunPlan } from '../plan/plan-run.js';
import type { Posture } from '@statecraft/records';

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
