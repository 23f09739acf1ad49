// (a) Supervisor overhead: superviseAdapter of an adapter that emits 10 events and exits, against
// spawning the same executable bare with child_process and reading its output.
import { performance } from 'node:perf_hooks';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { superviseAdapter } from '@statecraft/run';
import { fixture, median } from './common.mjs';

const executable = fixture('speak.mjs');
// init + 8 progress + result = 10 events.
const args = ['8'];
const environment = { PATH: `${dirname(process.execPath)}:/usr/bin:/bin` };
const prompt = 'scenario: complete';

function runBare(workspace) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(executable, args, { cwd: workspace, env: environment, stdio: ['pipe', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.resume();
    child.stdin.end(prompt);
    child.once('error', reject);
    child.once('close', () => resolve({ ms: performance.now() - started, bytes: Buffer.concat(chunks).length }));
  });
}

async function runSupervised(workspace, containment) {
  const started = performance.now();
  const answer = await superviseAdapter({
    executable,
    args,
    workspace,
    environment,
    prompt,
    deadlineMs: 30_000,
    attemptTag: `bench-${randomUUID()}`,
    containment,
  });
  const ms = performance.now() - started;
  if (answer.kind !== 'supervised' || answer.attempt.events.count !== 10 || answer.attempt.streamDiagnostic !== 'none') {
    throw new Error(`the supervised run did not read 10 clean events: ${JSON.stringify(answer)}`);
  }
  return { ms, mechanism: answer.attempt.containment.mechanism };
}

export async function measureOverhead(rounds = 25) {
  const workspace = mkdtempSync(join(tmpdir(), 'statecraft-bench-'));
  for (let warm = 0; warm < 3; warm += 1) {
    await runBare(workspace);
    await runSupervised(workspace, 'auto');
    await runSupervised(workspace, 'process-group');
  }
  const bare = [];
  const supervised = { auto: [], 'process-group': [] };
  let autoMechanism = 'unknown';
  // Interleaved, so drift in machine load falls on all three alike.
  for (let round = 0; round < rounds; round += 1) {
    bare.push((await runBare(workspace)).ms);
    const auto = await runSupervised(workspace, 'auto');
    autoMechanism = auto.mechanism;
    supervised.auto.push(auto.ms);
    supervised['process-group'].push((await runSupervised(workspace, 'process-group')).ms);
  }
  const bareMedian = median(bare);
  const figure = (samples) => ({ medianMs: median(samples), ratio: median(samples) / bareMedian, addedMs: median(samples) - bareMedian });
  return {
    rounds,
    bareMedianMs: bareMedian,
    auto: { mechanism: autoMechanism, ...figure(supervised.auto) },
    processGroup: figure(supervised['process-group']),
  };
}
