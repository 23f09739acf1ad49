import { PROTOCOL_VERSION, sha256Hex, type Request } from '@statecraft/adapter';
import type { RunPlan } from '../plan/plan-run.js';

/** The request the adapter is pointed at (R1.2): the prompt itself travels on stdin, so only its digest and length are here. */
export function buildRequest(plan: RunPlan, attempt: { runId: string; number: number; workspace: string; baseCommit: string }, now: Date): Request {
  const prompt = Buffer.from(plan.request.prompt, 'utf8');
  return {
    protocol: PROTOCOL_VERSION,
    attempt: { runId: attempt.runId, number: attempt.number },
    workspace: attempt.workspace,
    baseRevision: attempt.baseCommit,
    capabilities: { required: [...plan.negotiation.required], preferred: [...plan.negotiation.preferred] },
    limits: {
      maxTurns: plan.request.maxTurns,
      allow: [...plan.request.allow],
      deny: [...plan.request.deny],
      removeTools: [],
      hooks: [],
    },
    deadline: { milliseconds: plan.request.deadlineMs, at: new Date(now.getTime() + plan.request.deadlineMs).toISOString() },
    prompt: { sha256: sha256Hex(prompt), bytes: prompt.length },
    provider: plan.request.provider === undefined ? null : { executable: plan.request.provider },
    ...(plan.knownDigests.length === 0 ? {} : { knownDigests: plan.knownDigests }),
  };
}
