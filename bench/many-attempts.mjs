// Issue 33's figure: `statecraft run --attempts 4` of an adapter that works 3 s, against one such
// attempt: the wall time (≤ 1.3×), and statecraft's CPU added per attempt (≤ that of a single run).
// CPU is the whole process tree's (user + system of every child the shell waited for, the adapter
// and git included), less the adapter's own, measured bare with the same request.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { median } from './common.mjs';
import { STATECRAFT, productHome, sampleRepository } from './run-statecraft-helpers.mjs';

const WORK_MS = 3000;
const ATTEMPTS = 4;

/** An adapter that reads its prompt, works WORK_MS (asleep, as an agent waiting on its provider does), and completes. */
function workingAdapter() {
  const directory = mkdtempSync(join(tmpdir(), 'statecraft-bench-many-'));
  const executable = join(directory, 'works-3s');
  writeFileSync(
    executable,
    `#!/usr/bin/env node
let seq = 0;
const emit = (event) => process.stdout.write(JSON.stringify({ protocol: 1, seq: seq++, ...event }) + '\\n');
process.stdin.resume();
emit({ type: 'init', adapter: { name: 'works-3s', version: '1.0.0' }, provider: 'none', requested: { capabilities: [] }, applied: { capabilities: [], tools: [], allowlist: 'not-recorded' }, detail: {} });
setTimeout(() => {
  emit({ type: 'result', terminal: 'completed', claim: { status: 'success', isError: false, reason: 'completed', detail: {} }, turns: 1, cost: { usd: 0.01 } });
  process.stdout.write('', () => process.exit(0));
}, ${WORK_MS});
`,
  );
  chmodSync(executable, 0o755);
  writeFileSync(
    `${executable}.manifest.json`,
    JSON.stringify({ name: 'works-3s', version: '1.0.0', protocol: 1, capabilities: [], requiresCommands: ['node'] }),
  );
  return executable;
}

/** Runs the command under a shell that reports, with `times`, the CPU of every process it waited for: wall ms, CPU ms, exit code. */
function timedTree(args, env) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('bash', ['-c', '"$@" >/dev/null 2>&1; code=$?; times; exit $code', 'bench', ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      const ms = performance.now() - started;
      // `times`: the shell's own user and system, then its children's.
      const lines = Buffer.concat(chunks).toString('utf8').trim().split('\n');
      const seconds = (lines[1] ?? '')
        .split(/\s+/)
        .map((field) => /^(\d+)m([\d.]+)s$/.exec(field))
        .reduce((sum, match) => sum + (match === null ? 0 : Number(match[1]) * 60 + Number(match[2])), 0);
      resolve({ ms, cpuMs: seconds * 1000, code });
    });
  });
}

export async function measureManyAttempts(rounds = 5) {
  const adapter = workingAdapter();
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, STATECRAFT_HOME: productHome() };
  const one = [];
  const many = [];
  const bare = [];
  const request = join(mkdtempSync(join(tmpdir(), 'statecraft-bench-many-request-')), 'request.json');
  writeFileSync(request, '{}');
  const run = async (repository, extra) => {
    const answer = await timedTree([STATECRAFT, 'run', repository, '--adapter', adapter, '--prompt', 'work', ...extra, '--json'], env);
    if (answer.code !== 0) throw new Error(`statecraft run ${extra.join(' ')} exited ${answer.code}`);
    return answer;
  };
  // One warm-up of each, not counted.
  await run(sampleRepository(), []);
  await run(sampleRepository(), ['--attempts', String(ATTEMPTS)]);
  for (let round = 0; round < rounds; round += 1) {
    one.push(await run(sampleRepository(), []));
    many.push(await run(sampleRepository(), ['--attempts', String(ATTEMPTS)]));
    bare.push(await timedTree([adapter, 'run', '--request', request], env));
  }
  const oneMs = median(one.map((answer) => answer.ms));
  const manyMs = median(many.map((answer) => answer.ms));
  const bareCpuMs = median(bare.map((answer) => answer.cpuMs));
  const addedCpuOneMs = median(one.map((answer) => answer.cpuMs)) - bareCpuMs;
  const addedCpuPerAttemptMs = (median(many.map((answer) => answer.cpuMs)) - ATTEMPTS * bareCpuMs) / ATTEMPTS;
  return { rounds, attempts: ATTEMPTS, workMs: WORK_MS, oneMs, manyMs, ratio: manyMs / oneMs, bareCpuMs, addedCpuOneMs, addedCpuPerAttemptMs };
}

export async function reportManyAttempts() {
  const figure = await measureManyAttempts();
  const fixed = (value, digits = 1) => value.toFixed(digits);
  const verdict = (ok) => (ok ? 'meets target' : 'MISSES target');
  console.log(`\n(l) run --attempts ${figure.attempts} of an adapter that works ${figure.workMs / 1000} s (${figure.rounds} rounds, medians)`);
  console.log(
    `    wall time              ${fixed(figure.manyMs)} ms against one attempt's ${fixed(figure.oneMs)} ms: ratio ${fixed(figure.ratio, 2)} (≤ 1.3)  ${verdict(figure.ratio <= 1.3)}`,
  );
  console.log(
    `    added CPU per attempt  ${fixed(figure.addedCpuPerAttemptMs)} ms against a single run's ${fixed(figure.addedCpuOneMs)} ms (the adapter's own ${fixed(figure.bareCpuMs)} ms taken off)  ${verdict(figure.addedCpuPerAttemptMs <= figure.addedCpuOneMs)}`,
  );
  console.log(`\n${JSON.stringify({ manyAttempts: figure })}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await reportManyAttempts();
