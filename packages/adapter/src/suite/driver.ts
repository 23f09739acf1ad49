import type { Request } from '../protocol/request.js';
import type { CapabilityToken } from '../capabilities.js';
import type { AttemptResult } from '../result.js';

/**
 * How the negative suite provokes behaviour from one adapter. The suite itself is the same
 * table for every adapter (R4); a driver only says how to make *this* adapter refuse, hang,
 * emit a malformed stream … The fixture adapter's driver uses the prompt `scenario: <name>`;
 * a provider adapter's driver points the provider at a scripted double, or replays a recorded
 * stream through a real child.
 */

/** The kind of evidence a case rests on (R3.1). */
export type EvidenceKind = 'live' | 'replayed' | 'fixture';

/** Behaviours the suite asks a driver to provoke. */
export type DriverScenario = 'complete' | 'refuse' | 'hang' | 'malformed' | 'read-failure' | 'no-result' | 'no-cost';

/** One provocation: what the suite sends so the adapter shows the behaviour. */
export interface Provocation {
  /** Sent on the adapter's stdin. */
  prompt: string;
  /** Added to the constructed environment (e.g. a double's base URL and a test credential). */
  environment?: Readonly<Record<string, string>>;
  /** Overrides of the request's limits (deny rules, turn cap, hooks …). */
  limits?: Partial<Request['limits']>;
  /** A provider executable to name in the request (e.g. a replay child standing in for it). */
  provider?: string;
  /** Deadline for this provocation; the suite uses a generous default where time is not the subject. */
  deadlineMs?: number;
  evidence: EvidenceKind;
}

/** One declared token, measured against the running adapter (R10.5; suite row 6). */
export interface TokenMeasurement {
  token: CapabilityToken;
  honored: boolean;
  /** What was observed, in a sentence. */
  detail: string;
  evidence: EvidenceKind;
}

/** What a driver's token measurement may use: a way to run one provocation and read the result. */
export interface MeasurementContext {
  /** Runs one provocation through the real supervisor and returns the recorded result and raw stream. */
  provoke(provocation: Provocation): Promise<{ result: AttemptResult; rawStream: string }>;
  /** Every attempt's working directory, so a measurement can look at what a session wrote (workspace-write). */
  workspace: string;
  /**
   * The TMPDIR every attempt is given, writable under the boundary and kept until the suite ends:
   * a measurement can make a directory there that only the adapter's own confinement keeps a
   * session from writing (workspace-write).
   */
  temporaryDirectory: string;
}

export interface SuiteDriver {
  /** A short name for reports, e.g. `fixture`, or a provider adapter's name. */
  name: string;
  /** Starts whatever the provocations need (a scripted double); called once before the suite. */
  setUp?(): Promise<void>;
  /** Stops it; called once after the suite, even when a case failed. */
  tearDown?(): Promise<void>;
  /** How to provoke a scenario, or `not-applicable` when this adapter cannot be made to show it. */
  provocation(scenario: DriverScenario): Provocation | 'not-applicable';
  /**
   * Row 9: a provocation in which the adapter, or its provider's tools, attack the records. The row
   * adds the targets to its environment (attack-targets.ts); the attack must read and append to the
   * chain (carrying what it read into `statecraft-stolen.txt` in the workspace), write the
   * qualification record and the checkout file, send SIGCONT to the supervisor pid, and write
   * `statecraft-attack-ran.txt` in the workspace. Absent: the row runs the shipped fixture's attack
   * in the same sandbox (evidence `fixture`), which measures the sandbox, not the provider's tools.
   */
  attack?(): Provocation;
  /**
   * Row 6: one measurement per declared token. Without it, the suite checks only that the init
   * event applies every declared token.
   */
  measureDeclaredTokens?(context: MeasurementContext): Promise<TokenMeasurement[]>;
  /** The provider binary this driver qualifies with the adapter (the pair, R3.1), if any. */
  provider?: { executable: string };
}
