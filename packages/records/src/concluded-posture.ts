import { residualsFor, type AttemptResult } from '@statecraft/adapter';
import type { Posture } from './posture.js';

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
