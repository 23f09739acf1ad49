import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findAttemptProcesses } from '@statecraft/adapter';
import { CONTAINMENT_OVERRIDE_VARIABLE, probeContainment } from '@statecraft/environment';
import type { ContainmentMechanism, ProtocolEvent } from '@statecraft/adapter';
import { fixture, freshDirectory, freshTag, isAlive, sessionOf, supervise } from './supervise-helpers.js';

// R7.3: both containment paths are exercised explicitly. The PID-namespace path runs where the probe
// says it is available; elsewhere the same test asserts the recorded fallback, and says which ran.
const probe = await probeContainment();
const paths: { requested: Exclude<ContainmentMechanism, 'bwrap'>; expected: ContainmentMechanism }[] = [
  { requested: 'process-group', expected: 'process-group' },
  { requested: 'pid-namespace', expected: probe.available ? 'pid-namespace' : 'process-group' },
];
console.info(
  probe.available
    ? 'containment tests: the PID-namespace path runs here'
    : `containment tests: no PID namespace here (${probe.reason}); the pid-namespace cases assert the process-group fallback`,
);

/** Every process of the attempt, as the host's /proc sees it, at the moment the fixture reports its descendant. */
function captureProcessesAt(kind: string, tag: string) {
  const captured: number[] = [];
  /** Processes that had called setsid (their own session leader) when captured. */
  const sessionLeaders: number[] = [];
  return {
    captured,
    sessionLeaders,
    onEvent: (event: ProtocolEvent) => {
      if (event.type !== 'progress' || event.kind !== kind) return;
      for (const pid of findAttemptProcesses(tag)) {
        captured.push(pid);
        if (sessionOf(pid) === pid) sessionLeaders.push(pid);
      }
    },
  };
}

/** Living processes whose command line contains `marker`, found without the attempt tag. */
function processesWithMarker(marker: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        return pid !== process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker) && isAlive(pid);
      } catch {
        return false;
      }
    });
}

/** The processes carrying `marker`, polled until there are none or `ms` has passed. */
async function waitUntilGone(marker: string, ms: number): Promise<number[]> {
  const until = Date.now() + ms;
  let left = processesWithMarker(marker);
  while (left.length > 0 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    left = processesWithMarker(marker);
  }
  return left;
}

describe.each(paths)('containment: $requested requested ($expected runs)', ({ requested, expected }) => {
  it('kills a hung child at the deadline with its setsid descendant, leaving no process behind, and records the mechanism (R7.2, R7.3; suite row 3)', async () => {
    const tag = freshTag();
    const capture = captureProcessesAt('descendant-started', tag);
    const deadlineMs = 3000;
    const attempt = await supervise({
      executable: fixture('hang-with-descendant.mjs'),
      attemptTag: tag,
      deadlineMs,
      containment: requested,
      onEvent: capture.onEvent,
    });
    expect(attempt.timedOut).toBe(true);
    expect(attempt.durationMs).toBeGreaterThanOrEqual(deadlineMs);
    expect(attempt.containment.mechanism).toBe(expected);
    expect(attempt.containment.blindSpots.length).toBeGreaterThan(0);
    expect(attempt.survivors).toEqual([]);
    // The child, the descendant that left the session (and unshare, in a namespace) were all seen alive…
    expect(capture.captured.length).toBeGreaterThanOrEqual(2);
    expect(capture.sessionLeaders.length).toBeGreaterThan(0);
    // …and none is alive now, by pid.
    expect(capture.captured.filter(isAlive)).toEqual([]);
    expect(findAttemptProcesses(tag)).toEqual([]);
  });

  it('reports a descendant left running after a clean finish as a survivor, or shows the namespace took it (R7.3)', async () => {
    const tag = freshTag();
    const capture = captureProcessesAt('descendant-started', tag);
    const attempt = await supervise({ executable: fixture('leave-behind.mjs'), attemptTag: tag, containment: requested, onEvent: capture.onEvent });
    expect(attempt.timedOut).toBe(false);
    expect(attempt.terminal).toMatchObject({ type: 'result' });
    if (expected === 'process-group') {
      // Never a clean termination: the leftover is named, with its command line.
      expect(attempt.survivors).toHaveLength(1);
      expect(attempt.survivors[0]?.command).toContain('setInterval');
    } else {
      // In a PID namespace the kernel kills the leftover when the adapter exits: nothing survives.
      expect(attempt.survivors).toEqual([]);
    }
    expect(capture.captured.filter(isAlive)).toEqual([]);
    expect(findAttemptProcesses(tag)).toEqual([]);
  });

  it('drains and counts output written after the result by a descendant, and never returns while that descendant holds stdout (R7.4)', async () => {
    const markerFile = join(freshDirectory(), 'descendant-wrote');
    const holdMs = 1500;
    const attempt = await supervise({ executable: fixture('linger.mjs'), args: [markerFile, String(holdMs)], containment: requested });
    expect(attempt.terminal).toMatchObject({ type: 'result' });
    expect(attempt.events.linesAfterTerminal).toBe(1);
    expect(attempt.streamDiagnostic).toBe('none');
    expect(attempt.timedOut).toBe(false);
    expect(attempt.survivors).toEqual([]);
    if (expected === 'process-group') {
      // The child exited long before; the supervisor waited for the pipe the descendant held.
      expect(attempt.durationMs).toBeGreaterThanOrEqual(holdMs);
    }
  });

  it('enforces the deadline after the result when a descendant holds stdout for ever (R7.2, R7.4)', async () => {
    const tag = freshTag();
    const markerFile = join(freshDirectory(), 'descendant-wrote');
    const deadlineMs = 3000;
    const attempt = await supervise({ executable: fixture('linger.mjs'), args: [markerFile, 'forever'], attemptTag: tag, deadlineMs, containment: requested });
    expect(attempt.terminal).toMatchObject({ type: 'result' });
    expect(attempt.survivors).toEqual([]);
    expect(findAttemptProcesses(tag)).toEqual([]);
    if (expected === 'process-group') {
      expect(attempt.timedOut).toBe(true);
      expect(attempt.durationMs).toBeGreaterThanOrEqual(deadlineMs);
      expect(attempt.durationMs).toBeLessThan(deadlineMs + 5000);
    } else {
      // The namespace ends with the adapter, so nothing can hold the pipe past it.
      expect(attempt.timedOut).toBe(false);
      expect(attempt.durationMs).toBeLessThan(deadlineMs);
    }
  });
});

describe('what each mechanism cannot see (R7.3: the blind spots are real, and recorded)', () => {
  it('the process-group fallback misses a descendant that left the session and dropped the tag, as its blind spot says', async () => {
    const marker = `escaped-${randomUUID()}`;
    try {
      const attempt = await supervise({ executable: fixture('escape-tag.mjs'), args: [marker], deadlineMs: 3000, containment: 'process-group' });
      expect(attempt.timedOut).toBe(true);
      expect(attempt.containment.blindSpots.join('\n')).toContain('removes STATECRAFT_ATTEMPT_TAG');
      // Not reported, because not seen: exactly the recorded blind spot.
      expect(attempt.survivors).toEqual([]);
      expect(processesWithMarker(marker)).toHaveLength(1);
    } finally {
      for (const pid of processesWithMarker(marker)) process.kill(pid, 'SIGKILL');
    }
  });

  it('a PID namespace takes that descendant down with the adapter; where none can be made, the fallback is recorded with its reason', async () => {
    const marker = `escaped-${randomUUID()}`;
    try {
      const attempt = await supervise({ executable: fixture('escape-tag.mjs'), args: [marker], deadlineMs: 3000, containment: 'pid-namespace' });
      expect(attempt.timedOut).toBe(true);
      if (probe.available) {
        expect(attempt.containment.mechanism).toBe('pid-namespace');
        // The kernel tears the namespace down asynchronously; on two loaded cores that can outlast the
        // supervisor's one-second probe. Time is not the subject: a descendant the namespace did not
        // take down would still be running after ten seconds (it loops for ever).
        expect(await waitUntilGone(marker, 10_000)).toEqual([]);
      } else {
        expect(attempt.containment.mechanism).toBe('process-group');
        expect(attempt.containment.blindSpots[0]).toContain(probe.reason);
      }
    } finally {
      for (const pid of processesWithMarker(marker)) process.kill(pid, 'SIGKILL');
    }
  });
});

describe('choosing the containment mechanism', () => {
  const saved = process.env[CONTAINMENT_OVERRIDE_VARIABLE];
  afterEach(() => {
    if (saved === undefined) delete process.env[CONTAINMENT_OVERRIDE_VARIABLE];
    else process.env[CONTAINMENT_OVERRIDE_VARIABLE] = saved;
  });

  it(`forces the process-group fallback under ${CONTAINMENT_OVERRIDE_VARIABLE}=process-group, and records it (R6, R7.3)`, async () => {
    process.env[CONTAINMENT_OVERRIDE_VARIABLE] = 'process-group';
    const attempt = await supervise({ executable: fixture('speak.mjs') });
    expect(attempt.containment.mechanism).toBe('process-group');
    expect(attempt.containment.blindSpots.join('\n')).toContain('STATECRAFT_ATTEMPT_TAG');
  });

  it(`refuses to guess at a ${CONTAINMENT_OVERRIDE_VARIABLE} value it does not know, naming it`, async () => {
    process.env[CONTAINMENT_OVERRIDE_VARIABLE] = 'process_group';
    await expect(supervise({ executable: fixture('speak.mjs') })).rejects.toThrow(`${CONTAINMENT_OVERRIDE_VARIABLE}=process_group`);
  });

  it('uses a PID namespace by default where one is available, and otherwise records why not (R7.3)', async () => {
    delete process.env[CONTAINMENT_OVERRIDE_VARIABLE];
    const attempt = await supervise({ executable: fixture('speak.mjs') });
    if (probe.available) {
      expect(attempt.containment.mechanism).toBe('pid-namespace');
    } else {
      expect(attempt.containment.mechanism).toBe('process-group');
      expect(attempt.containment.blindSpots[0]).toContain(probe.reason);
    }
  });

  it('probes for a PID namespace once per process and caches the answer (R7.3)', async () => {
    expect(probeContainment()).toBe(probeContainment());
    expect(await probeContainment()).toEqual(probe);
  });
});
