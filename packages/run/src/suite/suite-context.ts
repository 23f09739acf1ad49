import type { ProtectedLocation } from '@statecraft/environment';
import { resolvedThroughLinks } from '@statecraft/environment';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProtocolEvent, ProviderIdentity } from '@statecraft/adapter';
import type { Manifest } from '@statecraft/adapter';
import type { ContainmentMechanism } from '@statecraft/adapter';
import type { BoundaryPath, BoundaryProfile } from '@statecraft/adapter';
import type { DriverScenario, Provocation, SuiteDriver } from '@statecraft/adapter';
import { keepAbsolutePathEntries } from '@statecraft/adapter';
import { runAdapterOnce, type RunAdapterOnceAnswer, type RunAdapterOnceOptions } from './run-adapter-once.js';

/** Where time is not the subject, a deadline no healthy adapter comes near. */
export const GENEROUS_DEADLINE_MS = 60_000;

/**
 * The homes the suite hides from every attempt, as `run` hides them (the operator's, /root, each
 * one of /home), and what of them is bound back read-only so the attempt still runs (the programs
 * it launches, the PATH's entries there). The seam does not read homes itself: its caller does,
 * with the reading `run`'s profile is built from (the environment package's `suiteHomes`).
 */
export interface SuiteHomes {
  hidden: readonly BoundaryPath[];
  readOnly: readonly BoundaryPath[];
}

/** One provocation's outcome, with everything a case may inspect. */
export interface Provoked {
  answer: RunAdapterOnceAnswer;
  /** The trusted prefix of the stream, in order, as the supervisor handed it over. */
  events: ProtocolEvent[];
  provocation: Provocation;
}

/** What every case is given: the adapter under test, its driver and a way to run one attempt. */
export interface SuiteContext {
  executable: string;
  manifestPath: string;
  manifest: Manifest;
  driver: SuiteDriver;
  scratchDir: string;
  /** A directory that exists: every attempt's working directory (R7.1). */
  workspace: string;
  /** Forced containment for every attempt, when the caller chose one. */
  containment?: 'auto' | Exclude<ContainmentMechanism, 'bwrap'>;
  /**
   * The evidence boundary every attempt runs under (R12), as `run` does: `bwrap` hides the given
   * product home and `homes`, and lets the adapter write only the workspace, its TMPDIR and its managed paths; `none`
   * runs without it.
   */
  boundary:
    { kind: 'bwrap'; productHome: string; homes?: SuiteHomes; writablePaths?: string; protectedLocations?: readonly ProtectedLocation[] } | { kind: 'none' };
  /** The operator's interrupt: every attempt is given it, so the one running when it comes is cancelled at once. */
  signal?: AbortSignal;
  /** The driver's provocation for a scenario, or `not-applicable`. */
  provocationFor(scenario: DriverScenario): Provocation | 'not-applicable';
  /** Runs one provocation through the real supervisor; `overrides` change the attempt's plan. */
  provoke(provocation: Provocation, overrides?: Partial<RunAdapterOnceOptions>): Promise<Provoked>;
  /** The next attempt's identity and directory (each attempt keeps its own files). */
  nextAttempt(): { runId: string; number: number; dir: string };
  /** The first provider identity an init event reported, for the record's pair (R3.1). */
  observedProvider(): ProviderIdentity | undefined;
}

export function createSuiteContext(base: Omit<SuiteContext, 'provocationFor' | 'provoke' | 'nextAttempt' | 'observedProvider'>): SuiteContext {
  let attempts = 0;
  let provider: ProviderIdentity | undefined;
  const context: SuiteContext = {
    ...base,
    observedProvider: () => provider,
    provocationFor: (scenario) => base.driver.provocation(scenario),
    nextAttempt() {
      attempts += 1;
      return { runId: 'negative-suite', number: attempts, dir: join(base.scratchDir, `attempt-${attempts}`) };
    },
    async provoke(provocation, overrides = {}) {
      const attempt = context.nextAttempt();
      const events: ProtocolEvent[] = [];
      const { onEvent: alsoOnEvent, ...plan } = overrides;
      const answer = await runAdapterOnce({
        executable: base.executable,
        manifestPath: base.manifestPath,
        workspace: base.workspace,
        baseRevision: 'negative-suite',
        attempt: { runId: attempt.runId, number: attempt.number },
        required: [],
        // Ask for everything declared, so the init event shows what was applied of each (R2.4).
        preferred: base.manifest.capabilities,
        ...(provocation.limits === undefined ? {} : { limits: provocation.limits }),
        prompt: provocation.prompt,
        deadlineMs: provocation.deadlineMs ?? GENEROUS_DEADLINE_MS,
        environment: suiteEnvironment(base.scratchDir, attempt, provocation),
        // The pair under test (R3.1): the driver's provider, unless this provocation names another.
        ...providerFor(provocation, base.driver),
        attemptDir: attempt.dir,
        ...(base.containment === undefined ? {} : { containment: base.containment }),
        ...(base.signal === undefined ? {} : { signal: base.signal }),
        ...(base.boundary.kind === 'bwrap' ? { boundary: suiteBoundaryProfile(base.scratchDir, base.workspace, base.boundary) } : {}),
        // Its private HOME's paths go with the scratch directory (as the bound paths are: links resolved);
        // an absolute one is the machine's own.
        ...(base.boundary.kind === 'bwrap' && base.boundary.protectedLocations !== undefined ? { protectedLocations: base.boundary.protectedLocations } : {}),
        ...(base.boundary.kind === 'bwrap' && base.boundary.writablePaths !== undefined
          ? { rememberWritablePathsIn: { directory: base.boundary.writablePaths, besides: resolvedThroughLinks(base.scratchDir) } }
          : {}),
        onEvent: (event) => {
          events.push(event);
          if (event.type === 'init' && event.provider !== 'none') provider ??= event.provider;
          alsoOnEvent?.(event);
        },
        ...plan,
      });
      return { answer, events, provocation };
    },
  };
  return context;
}

/**
 * The TMPDIR every attempt of the suite is given: made once, kept until the suite ends, and
 * writable under the boundary — the one place outside the workspace the adapter may write unless
 * it declares managed paths.
 */
export function suiteTemporaryDirectory(scratchDir: string): string {
  return join(scratchDir, 'tmp');
}

/**
 * The child's environment, constructed from an allowed set (R5.1): a PATH to find `node` and the
 * adapter's required commands, a private HOME and TMPDIR, the attempt-binding names (R5.5), then
 * whatever the driver's provocation adds (a double's address, a test credential).
 */
function suiteEnvironment(scratchDir: string, attempt: { runId: string; number: number; dir: string }, provocation: Provocation): Record<string, string> {
  return {
    // Absolute entries only, as `run` gives (path-entries.ts): a relative one resolves in the adapter's workspace.
    PATH: keepAbsolutePathEntries(process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin').kept,
    HOME: join(scratchDir, 'home'),
    TMPDIR: suiteTemporaryDirectory(scratchDir),
    LANG: 'C.UTF-8',
    STATECRAFT_RUN_ID: attempt.runId,
    STATECRAFT_ATTEMPT: String(attempt.number),
    ...provocation.environment,
  };
}

/**
 * The suite's sandbox profile, built beside its environment as `run` builds its own (R12): the
 * homes and the product home hidden; what of the homes the attempt needs (its programs, the PATH's
 * entries) read-only; the workspace and the private TMPDIR writable, and each launch adds the
 * adapter's declared managed paths once checked — not the whole HOME, which `run` does not bind
 * either. The attempts' request and stream files in the scratch directory stay readable, never
 * writable.
 */
function suiteBoundaryProfile(scratchDir: string, workspace: string, boundary: { productHome: string; homes?: SuiteHomes }): BoundaryProfile {
  return {
    hidden: [...(boundary.homes?.hidden ?? []), { path: boundary.productHome, role: 'product-home' }],
    // The managed paths are added by each launch once checked (run-adapter-once.ts), never unchecked here.
    writable: [
      { path: workspace, role: 'workspace' },
      { path: suiteTemporaryDirectory(scratchDir), role: 'temporary-directory' },
    ],
    readOnly: [...(boundary.homes?.readOnly ?? [])],
  };
}

/** The raw bytes the adapter wrote to stdout, as the supervisor kept them. */
export async function readRawStream(answer: RunAdapterOnceAnswer): Promise<string> {
  if (answer.kind !== 'ran') return '';
  return readFile(answer.files.stream, 'utf8');
}

function providerFor(provocation: Provocation, driver: SuiteDriver): { provider?: string } {
  const executable = provocation.provider ?? driver.provider?.executable;
  return executable === undefined ? {} : { provider: executable };
}
