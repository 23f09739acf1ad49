import type { AttemptResult, InterruptionCause, Outcome } from '@statecraft/adapter';
import type { Artifact, IntentRecord, Posture } from '@statecraft/run';

/**
 * The three names of absence (R8.3), none of which reads as success: `none` (the run recorded
 * that nothing of this kind happened), `not-recorded` (no record of this kind exists), `stale`
 * (a record exists for a revision that is no longer current).
 */
export type NotRecorded = 'not-recorded';

/**
 * `concluded`: intent and outcome. `running`: an intent whose supervisor still holds the lock.
 * `dangling`: an intent with no outcome and no live supervisor — the supervisor died; never
 * shown as completed.
 */
export type AttemptState = 'concluded' | 'running' | 'dangling';

/**
 * One attempt as an operator reads it: the JSON contract of `run --json` and `run show --json`
 * (issue 3 item 10). Fields are only ever added, never renamed.
 */
export interface AttemptAccount {
  runId: string;
  attempt: number;
  state: AttemptState;
  outcome: Outcome | NotRecorded;
  cause: InterruptionCause | NotRecorded;
  refusalCount: number | NotRecorded;
  /** Verbatim, as the adapter carried them from the provider. */
  refusals: AttemptResult['refusals'] | NotRecorded;
  /** The provider's own word for its ending: a claim, never the outcome (R8.2). */
  providerClaim: AttemptResult['providerClaim'] | NotRecorded;
  /** A number of dollars, `unknown` (never zero, R4 row 5), or `not-recorded`. */
  cost: number | 'unknown' | NotRecorded;
  timedOut: boolean | NotRecorded;
  /** `none`: the stream was read cleanly to its terminal event. */
  streamError: AttemptResult['streamDiagnostic'] | NotRecorded;
  /** The adapter's `error` event (what it could not do, e.g. a provider it could not find), or `none`. */
  adapterError: AttemptResult['adapterError'] | NotRecorded;
  unverifiableRefusalAccount: boolean;
  turns: AttemptResult['turns'] | NotRecorded;
  target: string;
  workspace: string;
  branch: string;
  baseCommit: string;
  /** A commit id, or `not-recorded`. */
  headCommit: string;
  workspaceDirty: boolean | NotRecorded;
  startedAt: string;
  /** ISO 8601, or `not-recorded`. */
  endedAt: string;
  durationMs: number | NotRecorded;
  deadline: IntentRecord['deadline'];
  exit: AttemptResult['exit'] | NotRecorded;
  provider: AttemptResult['provider'] | NotRecorded;
  posture: {
    adapter: Posture['adapter'];
    qualification: Posture['qualification'];
    capabilities: Posture['capabilities'];
    environment: Posture['environment'];
    containment: Posture['containment'];
    /** The protected evidence boundary (R12): bwrap with its probe, or `none`, labelled. */
    boundary: Posture['boundary'];
    survivors: Posture['survivors'];
    coverage: Posture['coverage'];
  };
  records: {
    chain: string;
    intent: { line: number; sha256: string };
    outcome: { line: number; sha256: string } | NotRecorded;
  };
  /** Absolute paths of the files kept beside the chain, each with the digest the chain holds. */
  artifacts: {
    request: Artifact;
    prompt: Artifact;
    stream: Artifact | NotRecorded;
    stderr: Artifact | NotRecorded;
    result: Artifact | NotRecorded;
  };
}
