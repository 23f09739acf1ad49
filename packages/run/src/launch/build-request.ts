import { buildAttemptRequest } from '../attempt/attempt-request.js';
import type { Request } from '@statecraft/adapter';
import type { RunPlan } from '../plan/plan-run.js';

/**
 * The request of a run's attempt (R1.2), built by the attempt core the negative suite also uses:
 * only what the plan settles is `run`'s own (the limits the operator gave, the named provider,
 * the digests taken at planning).
 */
export function buildRequest(plan: RunPlan, attempt: { runId: string; number: number; workspace: string; baseCommit: string }, now: Date): Request {
  return buildAttemptRequest(
    {
      attempt: { runId: attempt.runId, number: attempt.number },
      workspace: attempt.workspace,
      baseRevision: attempt.baseCommit,
      required: plan.negotiation.required,
      preferred: plan.negotiation.preferred,
      limits: { maxTurns: plan.request.maxTurns, allow: [...plan.request.allow], deny: [...plan.request.deny] },
      deadlineMs: plan.request.deadlineMs,
      prompt: plan.request.prompt,
      ...(plan.request.provider === undefined ? {} : { provider: plan.request.provider }),
      knownDigests: plan.knownDigests,
      boundary: plan.boundary.kind,
      permissions: plan.permissions,
    },
    now,
  );
}
