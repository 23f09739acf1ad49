// `statecraft doctor` re-digests every kept file and re-classifies every attempt from its kept
// stream (issue 9). Two figures: over 1,000 attempts (a chain relinked from one real attempt, each
// copy with its own kept files, as `run` would have left them), and over one attempt whose kept
// stream is 256 MB (time and the doctor's peak RSS: the stream is read as a stream).
import { createHash } from 'node:crypto';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { median } from './common.mjs';
import { generateStream } from './generate-stream.mjs';
import { STATECRAFT, productHome, sampleRepository, timed } from './run-statecraft-helpers.mjs';

const sha = (text) => createHash('sha256').update(text).digest('hex');
const fileDigest = (path) => {
  const bytes = readFileSync(path);
  return { sha256: sha(bytes), bytes: bytes.length };
};

/** One real attempt of the fixture: its chain's two records and where its files are kept. */
async function oneRealAttempt(scenario) {
  const repository = sampleRepository();
  const home = productHome();
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, STATECRAFT_HOME: home };
  const first = await timed(STATECRAFT, ['run', repository, '--adapter', 'fixture', '--prompt', `scenario: ${scenario}`, '--json'], { env });
  const account = JSON.parse(first.stdout);
  const chain = account.records.chain;
  const [intentLine, outcomeLine] = readFileSync(chain, 'utf8').trim().split('\n');
  const remove = () => {
    rmSync(home, { recursive: true, force: true });
    rmSync(repository, { recursive: true, force: true });
  };
  return { env, repository, chain, runId: account.runId, intent: JSON.parse(intentLine), outcome: JSON.parse(outcomeLine), remove };
}

/**
 * Runs `statecraft doctor --json` under GNU time: wall seconds, and the CPU seconds and peak RSS of
 * the doctor process itself — CPU time holds steady on a loaded machine where wall time does not.
 */
function timedDoctor(env) {
  const measured = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', STATECRAFT, 'doctor', '--json'], {
    env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const [wall, user, system, peakKiB] = measured.stderr.trim().split('\n').at(-1).split(' ').map(Number);
  return { status: measured.status, value: JSON.parse(measured.stdout), ms: wall * 1000, cpuMs: (user + system) * 1000, peakRssMB: (peakKiB * 1024) / 1e6 };
}

/**
 * One real append after the chain the bench wrote: it verifies every link and checkpoints the
 * chain, as `run` leaves every chain (without a checkpoint doctor reports one missing). Doctor then
 * re-classifies one attempt more.
 */
async function checkpointByARun(real) {
  const appended = await timed(STATECRAFT, ['run', real.repository, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], { env: real.env });
  if (appended.code !== 0) throw new Error(`the checkpointing run exited ${appended.code}: ${appended.stderr}`);
}

/** Relinks records into a chain, each outcome naming the intent before it. */
function writeChain(chain, pairs) {
  const lines = [];
  let prev = 'genesis';
  for (const [intent, outcome] of pairs) {
    const intentText = JSON.stringify({ ...intent, prev, seq: lines.length });
    const intentDigest = sha(intentText);
    const outcomeText = JSON.stringify({ ...outcome, prev: intentDigest, seq: lines.length + 1, intent: intentDigest });
    prev = sha(outcomeText);
    lines.push(intentText, outcomeText);
  }
  writeFileSync(chain, `${lines.join('\n')}\n`);
  // The seeding run's checkpoint names a line this chain no longer holds (doctor reports it as cut):
  // the bench wrote this chain, and no append has checkpointed it.
  rmSync(join(dirname(chain), 'chain.checkpoint.json'), { force: true });
}

export async function measureDoctorOverAttempts(attempts = 1000, rounds = 3) {
  const real = await oneRealAttempt('refuse');
  const directory = dirname(real.chain);
  const pairs = [];
  for (let index = 0; index < attempts; index += 1) {
    // As long as the seeding run's id, so every file keeps its length where the id is replaced.
    const runId = `20261130T000000Z-${index.toString(16).padStart(6, '0')}`;
    const copy = join(directory, 'attempts', runId);
    cpSync(join(directory, 'attempts', real.runId), copy, { recursive: true });
    // Each copy's kept files name its own run, as `run` writes them: doctor compares the records
    // with the kept request and result (their run, workspace, result), so they must agree.
    // The stream is left as it is: the result holds its digest, which the record must agree with.
    for (const file of readdirSync(join(copy, '1')).filter((name) => name.endsWith('.json'))) {
      const path = join(copy, '1', file);
      const text = readFileSync(path, 'utf8');
      if (text.includes(real.runId)) writeFileSync(path, text.replaceAll(real.runId, runId));
    }
    const relabelled = (record) => {
      const text = JSON.parse(JSON.stringify(record).replaceAll(real.runId, runId));
      for (const artifact of Object.values(text.artifacts ?? {})) {
        if (typeof artifact === 'object' && artifact !== null && 'sha256' in artifact) Object.assign(artifact, fileDigest(join(directory, artifact.path)));
      }
      return text;
    };
    pairs.push([relabelled(real.intent), relabelled(real.outcome)]);
  }
  writeChain(real.chain, pairs);
  // The seeding attempt's own files are named by no record of this chain (doctor would report them).
  rmSync(join(directory, 'attempts', real.runId), { recursive: true, force: true });
  await checkpointByARun(real);
  const samples = [];
  for (let round = 0; round < rounds; round += 1) {
    const answer = timedDoctor(real.env);
    // The chain's attempts and the one appended to checkpoint it.
    if (answer.status !== 0 || answer.value.targets[0]?.reclassified !== attempts + 1)
      throw new Error(
        `doctor exited ${answer.status}, re-classified ${answer.value.targets[0]?.reclassified}: ${JSON.stringify(answer.value.findings.slice(0, 3))}`,
      );
    samples.push(answer);
  }
  real.remove();
  return {
    attempts,
    rounds,
    medianMs: median(samples.map((s) => s.ms)),
    medianCpuMs: median(samples.map((s) => s.cpuMs)),
    peakRssMB: Math.max(...samples.map((s) => s.peakRssMB)),
  };
}

/**
 * One real completed attempt whose kept stream is replaced by a generated one of `megabytes` MB, its
 * result and outcome rewritten to agree with it (the stream classifies as recorded), the chain
 * checkpointed by a second run: what doctor, export and verify read as `run` would have left it.
 */
export async function largeStreamAttempt(megabytes) {
  const real = await oneRealAttempt('complete');
  const directory = dirname(real.chain);
  const streamPath = join(directory, real.outcome.artifacts.stream.path);
  const generated = generateStream(streamPath, megabytes);
  const progress = generated.events - 2;
  const digest = fileDigest(streamPath);
  const result = {
    ...real.outcome.result,
    stdout: digest,
    events: { count: generated.events, progress, toolUses: progress / 10, linesAfterTerminal: 0 },
    provider: 'none',
    turns: 1,
    cost: 'unknown',
    // What generate-stream.mjs's init and result say: doctor compares every field the stream gives.
    providerClaim: { status: 'success', isError: false, reason: 'not-recorded', detail: {} },
    capabilities: { ...real.outcome.result.capabilities, applied: [] },
  };
  const resultText = `${JSON.stringify(result, null, 2)}\n`;
  writeFileSync(join(directory, real.outcome.artifacts.result.path), resultText);
  const outcome = {
    ...real.outcome,
    cost: 'unknown',
    result,
    artifacts: {
      ...real.outcome.artifacts,
      stream: { ...real.outcome.artifacts.stream, ...digest },
      result: { ...real.outcome.artifacts.result, sha256: sha(resultText), bytes: Buffer.byteLength(resultText) },
    },
  };
  writeChain(real.chain, [[real.intent, outcome]]);
  await checkpointByARun(real);
  return { ...real, streamBytes: digest.bytes, events: generated.events };
}

export async function measureDoctorOverLargeStream(megabytes = 256) {
  const real = await largeStreamAttempt(megabytes);
  const answer = timedDoctor(real.env);
  real.remove();
  // Exit 0: the forged record agrees with the generated stream, so the stream was classified again in full.
  if (answer.status !== 0 || answer.value.targets[0]?.reclassified !== 2)
    throw new Error(`doctor exited ${answer.status}: ${JSON.stringify(answer.value.findings)}`);
  return { streamMB: real.streamBytes / 1e6, events: real.events, ms: answer.ms, cpuMs: answer.cpuMs, peakRssMB: answer.peakRssMB };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify({ overAttempts: await measureDoctorOverAttempts(), overLargeStream: await measureDoctorOverLargeStream() }));
}
