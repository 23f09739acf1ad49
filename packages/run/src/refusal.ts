/**
 * Why a run was refused before anything was spawned or appended (exit 2), or failed on i/o
 * (exit 4). Values, not exceptions (docs/architecture.md, convention 3); each message names the thing refused.
 */
export type RefusalReason =
  | 'target'
  | 'adapter'
  | 'manifest'
  | 'negotiation'
  | 'environment'
  /** A credential the adapter declares is absent from the environment it would run with. */
  | 'credential'
  | 'coverage'
  | 'chain-broken'
  | 'chain-moved'
  | 'unknown-run'
  | 'base-commit'
  | 'live-attempt'
  | 'workspace'
  /** The protected evidence boundary could not be established (R12). */
  | 'boundary'
  | 'cancelled';

export interface RunRefusal {
  kind: 'refused';
  stage: 'plan' | 'launch';
  reason: RefusalReason;
  /** Names what was refused and says that nothing was spawned and nothing appended. */
  message: string;
  /** Structured evidence for `--json` (the missing tokens, the live holder, the refused names …). */
  detail: unknown;
}

/**
 * An i/o failure (exit 4), naming the path; `spawned` says whether an attempt ran before it.
 * `evidence`: a file kept beside the chain could not be written while the attempt ran.
 */
export interface RunFailure {
  kind: 'failed';
  stage: 'plan' | 'intent' | 'spawn' | 'evidence' | 'outcome';
  path: string;
  message: string;
  spawned: boolean;
  cause?: unknown;
}

export function refused(stage: RunRefusal['stage'], reason: RefusalReason, message: string, detail: unknown = null): RunRefusal {
  return { kind: 'refused', stage, reason, message, detail };
}
