import type { CapabilityToken } from '@statecraft/adapter';
import { sha256Hex } from '@statecraft/adapter';
import type { KnownDigest } from '@statecraft/adapter';
import type { PermissionMode, Request } from '@statecraft/adapter';
import { PROTOCOL_VERSION } from '@statecraft/adapter';

/** What one attempt's request is built from, whoever launches it (`run` or the negative suite). */
export interface AttemptRequestInput {
  attempt: { runId: string; number: number };
  workspace: string;
  baseRevision: string;
  required: readonly CapabilityToken[];
  preferred: readonly CapabilityToken[];
  limits?: Partial<Request['limits']>;
  deadlineMs: number;
  prompt: string;
  /** The provider executable the operator named; absent: the adapter resolves its own. */
  provider?: string;
  /** Digests the supervisor already took (the provider's), for the adapter to reuse. */
  knownDigests?: readonly KnownDigest[];
  /** The evidence boundary the adapter will run inside (R12); the adapter reads it to decide what it may let its provider write. */
  boundary: 'bwrap' | 'none';
  /** Absent or `strict`: the field is left out of the request, which reads as `strict` (request.ts). */
  permissions?: PermissionMode;
}

const NO_LIMITS: Request['limits'] = { maxTurns: null, allow: [], deny: [], removeTools: [], hooks: [] };

/**
 * The request the adapter is pointed at (R1.2). The prompt itself travels on stdin (R1.3), so only
 * its digest and length are here; the deadline's wall-clock time is taken from `now`.
 */
export function buildAttemptRequest(input: AttemptRequestInput, now: Date): Request {
  const prompt = Buffer.from(input.prompt, 'utf8');
  const known = input.knownDigests ?? [];
  return {
    protocol: PROTOCOL_VERSION,
    attempt: { runId: input.attempt.runId, number: input.attempt.number },
    workspace: input.workspace,
    baseRevision: input.baseRevision,
    capabilities: { required: [...input.required], preferred: [...input.preferred] },
    limits: { ...NO_LIMITS, ...input.limits },
    deadline: { milliseconds: input.deadlineMs, at: new Date(now.getTime() + input.deadlineMs).toISOString() },
    prompt: { sha256: sha256Hex(prompt), bytes: prompt.length },
    provider: input.provider === undefined ? null : { executable: input.provider },
    ...(known.length === 0 ? {} : { knownDigests: [...known] }),
    boundary: { mechanism: input.boundary },
    // Written only when it widens: a strict request stays the one every adapter already reads.
    ...(input.permissions === 'sandboxed' ? { permissions: { mode: 'sandboxed' as const } } : {}),
  };
}
