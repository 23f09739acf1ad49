// (c) Kill latency: from the deadline to every process of the attempt gone, the setsid descendant
// included, on the PID-namespace and the process-group paths.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { findAttemptProcesses } from '@statecraft/adapter';
import { probeContainment } from '@statecraft/environment';
import { superviseAdapter } from '@statecraft/run';
import { fixture, median } from './common.mjs';

const environment = { PATH: `${dirname(process.execPath)}:/usr/bin:/bin` };

function isAlive(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return false;
  }
}

async function once(containment, deadlineMs) {
  const attemptTag = `bench-${randomUUID()}`;
  const seen = [];
  const answer = await superviseAdapter({
    executable: fixture('hang-with-descendant.mjs'),
    args: [],
    workspace: mkdtempSync(join(tmpdir(), 'statecraft-bench-')),
    environment,
    prompt: 'scenario: hang',
    deadlineMs,
    attemptTag,
    containment,
    onEvent: (event) => {
      if (event.type === 'progress' && event.kind === 'descendant-started') seen.push(...findAttemptProcesses(attemptTag));
    },
  });
  const attempt = answer.attempt;
  // durationMs runs from the spawn, as the deadline does; the supervisor returns only once its probe finds nothing alive.
  const latencyMs = attempt.durationMs - deadlineMs;
  const left = seen.filter(isAlive);
  if (!attempt.timedOut || seen.length < 2 || left.length > 0 || attempt.survivors.length > 0) {
    throw new Error(`kill did not leave the tree gone: seen ${seen.length}, left ${left.join(',')}, survivors ${JSON.stringify(attempt.survivors)}`);
  }
  return { latencyMs, mechanism: attempt.containment.mechanism };
}

export async function measureKillLatency(rounds = 12, deadlineMs = 700) {
  const probe = await probeContainment();
  const result = {};
  for (const containment of ['pid-namespace', 'process-group']) {
    if (containment === 'pid-namespace' && !probe.available) {
      result[containment] = { skipped: `no PID namespace here: ${probe.reason}` };
      continue;
    }
    const samples = [];
    for (let round = 0; round < rounds; round += 1) samples.push((await once(containment, deadlineMs)).latencyMs);
    result[containment] = { rounds, medianMs: median(samples), maxMs: Math.max(...samples) };
  }
  return result;
}
