// `statecraft run list` over a long chain (issue 3: 10,000 attempts ≤ 1 s; issue 10: 100,000
// attempts ≤ 2 s). The chain is built from one real attempt's intent and outcome, relinked N
// times under N run ids, so every record is schema-valid and every link verifies exactly as a chain
// `run` wrote would, and no two attempts' postures are identical (nor are they in a real chain). 100,000 attempts are ~650 MB: written in batches (one string that size is past V8's limit).
import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './common.mjs';
import { STATECRAFT, productHome, sampleRepository, timed } from './run-statecraft-helpers.mjs';

const PEAK_PRELOAD = join(dirname(dirname(fileURLToPath(import.meta.url))), 'test', 'fixtures', 'report-peak-memory.cjs');
const sha = (text) => createHash('sha256').update(text).digest('hex');

/**
 * A target whose chain holds `attempts` relinked copies of one real attempt (fixture `refuse`),
 * ending with a real tip: `run` appends to it as to any chain.
 */
export async function targetWithAttempts(attempts) {
  const repository = sampleRepository();
  const home = productHome();
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, STATECRAFT_HOME: home };
  const first = await timed(STATECRAFT, ['run', repository, '--adapter', 'fixture', '--prompt', 'scenario: refuse', '--json'], { env });
  if (first.code !== 1) throw new Error(`the seeding run exited ${first.code}`);
  const chain = JSON.parse(first.stdout).records.chain;
  const [intentLine, outcomeLine] = readFileSync(chain, 'utf8').trim().split('\n');
  const intent = JSON.parse(intentLine);
  const outcome = JSON.parse(outcomeLine);
  const file = openSync(chain, 'w');
  let bytes = 0;
  try {
    let batch = [];
    let prev = 'genesis';
    for (let index = 0; index < attempts; index += 1) {
      const runId = `20261130T000000Z-${index.toString(16).padStart(6, '0')}`;
      // The seeding run's id is in its branch, workspace, artifact paths and posture (TMPDIR, the
      // boundary's profile): each copy carries its own, as the records of distinct runs do, so no
      // two postures are the same bytes here either. Both ids are 23 characters: the bytes stay as many.
      const intentText = JSON.stringify({ ...intent, prev, seq: 2 * index, runId }).replaceAll(intent.runId, runId);
      const intentDigest = sha(intentText);
      const outcomeText = JSON.stringify({ ...outcome, prev: intentDigest, seq: 2 * index + 1, runId, intent: intentDigest }).replaceAll(outcome.runId, runId);
      prev = sha(outcomeText);
      batch.push(intentText, outcomeText);
      if (batch.length >= 2000 || index === attempts - 1) {
        bytes += writeSync(file, `${batch.join('\n')}\n`);
        batch = [];
      }
    }
    // On disk before anything is timed: the generator's own writeback (up to ~900 MB) must not
    // run beside the rounds it would slow.
    fsyncSync(file);
  } finally {
    closeSync(file);
  }
  // The seeding run's checkpoint names a line this chain no longer holds, which `run` refuses as a
  // chain cut after it was verified: the bench wrote this chain, and no append has checkpointed it.
  rmSync(join(dirname(chain), 'chain.checkpoint.json'), { force: true });
  return { repository, home, env, chain, chainMB: bytes / 1e6 };
}

/**
 * `run list --json` over a target built by targetWithAttempts (or one given). The timed rounds run
 * the command as an operator does (bin/statecraft), and the peak RSS is taken in a round of its
 * own: its preload comes through NODE_OPTIONS, whose loading a timed round would count.
 */
export async function measureRunList(attempts = 10_000, rounds = 5, target = undefined) {
  const { repository, env, chainMB, home } = target ?? (await targetWithAttempts(attempts));
  const peakFile = join(home, 'peak-memory.txt');
  const listOnce = async (roundEnv) => {
    const answer = await timed(STATECRAFT, ['run', 'list', repository, '--json'], { env: roundEnv });
    if (answer.code !== 0) throw new Error(`run list exited ${answer.code}`);
    if (JSON.parse(answer.stdout).attempts.length !== attempts) throw new Error('run list did not list every attempt');
    return answer.ms;
  };
  await listOnce({ ...env, NODE_OPTIONS: `--require ${PEAK_PRELOAD}`, STATECRAFT_TEST_PEAK_MEMORY_FILE: peakFile });
  const samples = [];
  for (let round = 0; round < rounds; round += 1) samples.push(await listOnce(env));
  const peaks = readFileSync(peakFile, 'utf8')
    .trim()
    .split('\n')
    .map((line) => Number(line.split(' ')[1]) / 1024);
  return {
    attempts,
    records: 2 * attempts,
    chainMB,
    rounds,
    medianMs: median(samples),
    maxMs: Math.max(...samples),
    peakRssMB: Math.max(...peaks),
    loadAverage: loadavg()[0],
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await measureRunList(Number(process.argv[2] ?? 10_000))));
