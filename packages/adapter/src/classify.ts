import type { InterruptionCause, Outcome } from './outcome.js';
import type { AdapterIdentity, AttemptResult } from './result.js';
import type { SupervisedAttempt } from './supervise/attempt.js';
import type { StreamReading } from './stream/event-stream-reader.js';
import type { Manifest } from './protocol/manifest.js';
import type { Negotiation } from './negotiate.js';
import { findUnappliedCapabilities } from './negotiate.js';

type Negotiated = Extract<Negotiation, { kind: 'negotiated' }>;

/**
 * The supervisor's reading of an attempt (R8.2, R10.4). Order matters and is fixed so two
 * adapters cannot disagree: the deadline and stream diagnostics first (nothing after them is
 * trusted), then refusals (read before any error flag), then the terminal state; a `completed`
 * with survivors is not one. The exit status is never consulted (R7.6); the adapter's claim is
 * kept beside, never used.
 */
export function classifyOutcome(attempt: SupervisedAttempt): { outcome: Outcome; cause: InterruptionCause } {
  // What the supervisor stopped comes first: nothing after the stop was read (R7.2, R8.1, R8.4).
  if (attempt.stoppedBy === 'operator-cancel') return { outcome: 'cancelled', cause: 'operator-cancel' };
  if (attempt.stoppedBy === 'evidence-not-kept') return { outcome: 'interrupted', cause: 'evidence-not-kept' };
  if (attempt.stoppedBy === 'evidence-bound') return { outcome: 'interrupted', cause: 'evidence-bound' };
  if (attempt.stoppedBy === 'supervisor-lost') return { outcome: 'interrupted', cause: 'supervisor-lost' };
  if (attempt.timedOut) return { outcome: 'interrupted', cause: 'deadline' };
  const diagnostic = attempt.streamDiagnostic;
  if (diagnostic !== 'none') {
    const cause = diagnostic.kind === 'malformed' ? 'stream-malformed' : diagnostic.kind === 'read-failure' ? 'stream-read-failure' : 'stream-no-result';
    return { outcome: 'interrupted', cause };
  }
  if (attempt.refusals.count > 0) return { outcome: 'refused', cause: 'none' };
  const terminal = attempt.terminal;
  if (terminal === 'not-recorded') return { outcome: 'interrupted', cause: 'stream-no-result' };
  if (terminal.type === 'error') return { outcome: 'interrupted', cause: 'adapter-error' };
  switch (terminal.terminal) {
    case 'completed':
      // A process of the attempt still alive after the kill is a residual, never a clean end (R7.3).
      return attempt.survivors.length > 0 ? { outcome: 'interrupted', cause: 'processes-left' } : { outcome: 'completed', cause: 'none' };
    case 'turn-limit':
      return { outcome: 'interrupted', cause: 'turn-limit' };
    case 'provider-error':
      return { outcome: 'interrupted', cause: 'provider-error' };
    case 'unmapped':
      return { outcome: 'interrupted', cause: 'unmapped-terminal' };
  }
}

/** What a result holds that the event stream alone gives: everything `resultReadFromStream` reads. */
export type ResultReadFromStream = Pick<
  AttemptResult,
  'refusalCount' | 'refusals' | 'refusalDigest' | 'providerClaim' | 'terminal' | 'cost' | 'adapterError' | 'turns' | 'streamDiagnostic' | 'provider'
> & { appliedCapabilities: AttemptResult['capabilities']['applied'] };

/**
 * The fields of a result read from the stream and nothing else (the init, the refusals, the terminal
 * event, the diagnostic). One function for the supervisor's result and for `doctor`, which reads a
 * kept stream again and compares each with the record (R8.4): a field rewritten in the record alone
 * is then found, whatever the outcome says.
 */
export function resultReadFromStream(reading: StreamReading): ResultReadFromStream {
  const { init, terminal } = reading;
  const result = terminal !== 'not-recorded' && terminal.type === 'result' ? terminal : undefined;
  const cost = result?.cost;
  return {
    refusalCount: reading.refusals.count,
    refusals: reading.refusals.excerpt,
    refusalDigest: reading.refusals.digest,
    providerClaim: result ? result.claim : 'not-recorded',
    terminal: terminal === 'not-recorded' ? 'not-recorded' : terminal.type === 'error' ? 'adapter-error' : terminal.terminal,
    cost: cost === undefined || cost === 'unknown' ? 'unknown' : cost.usd,
    adapterError: terminal !== 'not-recorded' && terminal.type === 'error' ? { code: terminal.code, message: terminal.message } : 'none',
    turns: result ? result.turns : 'not-recorded',
    streamDiagnostic: reading.streamDiagnostic,
    provider: init === 'not-recorded' ? 'not-recorded' : init.provider,
    appliedCapabilities: init === 'not-recorded' ? 'not-recorded' : init.applied.capabilities,
  };
}

/** Folds one supervised attempt into the result the supervisor records (R1.2). */
export function classifyAttempt(attempt: SupervisedAttempt, context: { manifest: Manifest; negotiation: Negotiated; adapter: AdapterIdentity }): AttemptResult {
  const { outcome, cause } = classifyOutcome(attempt);
  const init = attempt.init;
  const { appliedCapabilities, ...read } = resultReadFromStream(attempt);
  return {
    outcome,
    cause,
    refusalCount: read.refusalCount,
    refusals: read.refusals,
    refusalDigest: read.refusalDigest,
    providerClaim: read.providerClaim,
    terminal: read.terminal,
    cost: read.cost,
    adapterError: read.adapterError,
    turns: read.turns,
    timedOut: attempt.timedOut,
    streamDiagnostic: read.streamDiagnostic,
    capabilities: {
      required: context.negotiation.required,
      preferred: context.negotiation.preferred,
      declared: context.manifest.capabilities,
      applied: appliedCapabilities,
      degraded: context.negotiation.degraded,
      notApplied: init === 'not-recorded' ? [] : findUnappliedCapabilities(context.manifest, init),
    },
    unverifiableRefusalAccount: context.negotiation.unverifiableRefusalAccount,
    adapter: context.adapter,
    provider: read.provider,
    exit: attempt.exit,
    containment: attempt.containment,
    survivors: attempt.survivors,
    events: { ...attempt.events },
    stdout: attempt.stdout,
    stderr: attempt.stderr,
    startedAt: attempt.startedAt,
    endedAt: attempt.endedAt,
    durationMs: attempt.durationMs,
  };
}
