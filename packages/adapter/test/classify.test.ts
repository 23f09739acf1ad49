import { describe, expect, it } from 'vitest';
import { classifyOutcome, type SupervisedAttempt } from '@statecraft/adapter';

// The supervisor's reading of an attempt (R8.1, R8.2, R7.5, R7.6, R10.4): pure, so every case is a value.

const digest = { bytes: 0, sha256: '0'.repeat(64) };
const claim = { status: 'success', isError: false as const, reason: 'completed', detail: {} };
const refusal = { type: 'refusal' as const, protocol: 1 as const, seq: 1, tool: 'Bash', verbatim: {} };
const noRefusals: SupervisedAttempt['refusals'] = { count: 0, digest: { sha256: '0'.repeat(64), bytes: 0 }, excerpt: [] };
const oneRefusal: SupervisedAttempt['refusals'] = { count: 1, digest: { sha256: '1'.repeat(64), bytes: 64 }, excerpt: [refusal] };

function attempt(changes: Partial<SupervisedAttempt> = {}): SupervisedAttempt {
  return {
    init: 'not-recorded',
    refusals: noRefusals,
    terminal: { type: 'result', protocol: 1, seq: 2, terminal: 'completed', claim, turns: 1 },
    events: { count: 3, progress: 0, toolUses: 0, linesAfterTerminal: 0 },
    streamDiagnostic: 'none',
    timedOut: false,
    stoppedBy: 'none',
    exit: { code: 0, signal: null },
    containment: { mechanism: 'process-group', blindSpots: [] },
    survivors: [],
    startedAt: new Date(0).toISOString(),
    endedAt: new Date(1).toISOString(),
    durationMs: 1,
    stdout: digest,
    stderr: digest,
    ...changes,
  };
}

describe('classifying an attempt', () => {
  it('a completed result with no refusal reads completed', () => {
    expect(classifyOutcome(attempt())).toEqual({ outcome: 'completed', cause: 'none' });
  });

  it('a completed result with a survivor reads interrupted (processes-left): a survivor is never a clean end (R7.3)', () => {
    const survivors = [{ pid: 4242, command: 'sleep 304' }];
    expect(classifyOutcome(attempt({ survivors }))).toEqual({ outcome: 'interrupted', cause: 'processes-left' });
    // A worse reading keeps its own cause: the survivors are listed beside it.
    expect(classifyOutcome(attempt({ survivors, refusals: oneRefusal }))).toEqual({ outcome: 'refused', cause: 'none' });
  });

  it('a refusal makes the attempt refused beside a completed result and a zero exit (R8.1)', () => {
    expect(classifyOutcome(attempt({ refusals: oneRefusal }))).toEqual({ outcome: 'refused', cause: 'none' });
  });

  it('the deadline comes first: a timed-out attempt is interrupted even with a result and refusals (R7.2)', () => {
    expect(classifyOutcome(attempt({ timedOut: true, stoppedBy: 'deadline', refusals: oneRefusal }))).toEqual({ outcome: 'interrupted', cause: 'deadline' });
  });

  it("the operator's interrupt is classified cancelled by the supervisor, before anything the stream says (R8.1)", () => {
    expect(classifyOutcome(attempt({ stoppedBy: 'operator-cancel', refusals: oneRefusal }))).toEqual({ outcome: 'cancelled', cause: 'operator-cancel' });
  });

  it('evidence that could not be written stops the attempt: interrupted, whatever the stream says (R8.4)', () => {
    expect(classifyOutcome(attempt({ stoppedBy: 'evidence-not-kept' }))).toEqual({ outcome: 'interrupted', cause: 'evidence-not-kept' });
  });

  it('a stream diagnostic outranks refusals and the terminal state (R7.5)', () => {
    expect(classifyOutcome(attempt({ refusals: oneRefusal, streamDiagnostic: { kind: 'no-result' } }))).toEqual({
      outcome: 'interrupted',
      cause: 'stream-no-result',
    });
  });

  it('the exit status supplies no authority in either direction (R7.6)', () => {
    expect(classifyOutcome(attempt({ exit: { code: 1, signal: null } })).outcome).toBe('completed');
    expect(classifyOutcome(attempt({ terminal: 'not-recorded', exit: { code: 0, signal: null } })).outcome).toBe('interrupted');
  });

  it.each([
    ['turn-limit', 'turn-limit'],
    ['provider-error', 'provider-error'],
    ['unmapped', 'unmapped-terminal'],
  ] as const)('terminal %s reads interrupted (%s), never completed (R10.4)', (terminal, cause) => {
    const result = { type: 'result' as const, protocol: 1 as const, seq: 2, terminal, claim, turns: 1 };
    expect(classifyOutcome(attempt({ terminal: result }))).toEqual({ outcome: 'interrupted', cause });
  });
});
