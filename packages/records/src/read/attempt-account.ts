import type { AttemptResult, InterruptionCause, Outcome } from '@statecraft/adapter';
import type { AcceptanceView } from './acceptance-view.js';
import type { Artifact, IntentRecord, OutcomeRecord } from '../chain/record-schemas.js';
import type { OutcomeCandidate } from '../candidate.js';
import type { Posture } from '../posture.js';

/**
 * The three names of absence (R8.3), none of which reads as success: `none` (the run recorded
 * that nothing of this kind happened), `not-recorded` (no record of this kind exists), `stale`
 * (a record exists for a revision that is no longer current).
 */
type NotRecorded = 'not-recorded';

/**
 * `concluded`: intent and outcome. `running`: an intent whose supervisor still holds the lock.
 * `dangling`: an intent with no outcome and no live supervisor — the supervisor died; never
 * shown as completed.
 */
export type AttemptState = 'concluded' | 'running' | 'dangling';

/**
 * One attempt as an operator reads it: the JSON contract of `run --json` and `run show --json`.
 * Fields are only ever added, never renamed.
 */
export interface AttemptAccount {
  runId: string;
  attempt: number;
  state: AttemptState;
  /** `failed` after a failed acceptance (R13.4); else the outcome record's. */
  outcome: Outcome | NotRecorded;
  /** The record the outcome is read from: the outcome record, or the acceptance that judged the work not to hold. */
  outcomeFrom: { record: 'outcome' | 'acceptance'; line: number; sha256: string } | NotRecorded;
  /** The outcome the supervisor classified when the attempt ended (`completed` beside a failed acceptance): the claim kept. */
  attemptOutcome: Outcome | NotRecorded;
  cause: InterruptionCause | NotRecorded;
  refusalCount: number | NotRecorded;
  /**
   * The first refusals (at most 8 in a record written now), verbatim as the adapter carried them
   * from the provider, a long one cut; all `refusalCount` of them are in `artifacts.stream`.
   */
  refusals: OutcomeRecord['result']['refusals'] | NotRecorded;
  /** sha256 over every refusal line of the stream (refusal-tally.ts); `not-recorded` in an older record. */
  refusalDigest: OutcomeRecord['result']['refusalDigest'] | NotRecorded;
  /** The provider's own word for its ending: a claim, never the outcome (R8.2). */
  providerClaim: AttemptResult['providerClaim'] | NotRecorded;
  /** A number of dollars, `unknown` (never zero, R4 row 5), or `not-recorded`. */
  cost: number | 'unknown' | NotRecorded;
  timedOut: boolean | NotRecorded;
  /** `none`: the stream was read cleanly to its terminal event. Named as the result names it. */
  streamDiagnostic: AttemptResult['streamDiagnostic'] | NotRecorded;
  /** The same value as `streamDiagnostic`, under this document's first name for it: kept, since fields are never renamed (R11). */
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
  /** The latest acceptance of this attempt, or its first final verdict (R13.4); `not-attempted` for one that did not complete; `not-recorded` when never judged. */
  acceptance: AcceptanceView | NotRecorded;
  /** What acceptance judges (R13.2): identified for a completed attempt, else `not-recorded`. */
  candidate: OutcomeCandidate;
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
    /** What the provider was permitted on its own (`--permissions`): `sandboxed` or `strict`. */
    permissions: Posture['permissions'];
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
  /** `kept`, or the files (absolute paths) that could not be written, each with why; `not-recorded` before the outcome. */
  evidence: 'kept' | { notKept: { path: string; message: string }[] } | NotRecorded;
}
