// Issue 10 item 6: records that scale. On one target with 100,000 prior attempts (bench/run-list.mjs
// builds its chain from a real attempt, relinked): `run list` (≤ 2 s), and `statecraft run` against
// the same run on an empty target (added ≤ 20 ms median), in interleaved rounds.
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openChainForAppend } from '@statecraft/records';
import { median } from './common.mjs';
import { measureRunList, targetWithAttempts } from './run-list.mjs';
import { STATECRAFT, productHome, sampleRepository, timed } from './run-statecraft-helpers.mjs';

const runArgs = (repository) => ['run', repository, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'];

async function runOnce(repository, env) {
  const answer = await timed(STATECRAFT, runArgs(repository), { env });
  if (answer.code !== 0) throw new Error(`statecraft run exited ${answer.code}`);
  return answer.ms;
}

export async function measureScale(attempts = 100_000, { listRounds = 3, runRounds = 9 } = {}) {
  const large = await targetWithAttempts(attempts);
  const list = await measureRunList(attempts, listRounds, large);
  // The bench wrote the chain itself, so no append has left a checkpoint yet: the first run
  // verifies every link (the one-time cost of a chain with no checkpoint), later ones start there.
  const firstRunMs = await runOnce(large.repository, large.env);
  const samples = { empty: [], large: [] };
  const loadBefore = loadavg()[0];
  for (let round = 0; round < runRounds; round += 1) {
    // A fresh empty target per round: "empty" stays empty.
    const home = productHome();
    const emptyEnv = { PATH: process.env.PATH, HOME: process.env.HOME, STATECRAFT_HOME: home };
    const empty = sampleRepository();
    const order = round % 2 === 0 ? ['empty', 'large'] : ['large', 'empty'];
    for (const which of order) {
      samples[which].push(which === 'empty' ? await runOnce(empty, emptyEnv) : await runOnce(large.repository, large.env));
    }
  }
  // The launch's own reading of the chain, in process: what the load above drowns in noise.
  const reading = { large: [], empty: [] };
  for (let round = 0; round < 41; round += 1) {
    for (const [which, chain] of [
      ['large', large.chain],
      ['empty', join(productHome(), 'no-chain-yet', 'chain.jsonl')],
    ]) {
      const started = performance.now();
      const opening = await openChainForAppend(chain);
      if (opening.kind !== 'opened') throw new Error(`the chain did not open: ${opening.message}`);
      reading[which].push(performance.now() - started);
    }
  }
  const run = {
    launchReadingMedianMs: { large: median(reading.large), empty: median(reading.empty) },
    rounds: runRounds,
    emptyMedianMs: median(samples.empty),
    largeMedianMs: median(samples.large),
    addedMs: median(samples.large) - median(samples.empty),
    firstRunWithoutCheckpointMs: firstRunMs,
    loadAverage: [loadBefore, loadavg()[0]],
  };
  return { attempts, chainMB: large.chainMB, list, run };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await measureScale(Number(process.argv[2] ?? 100_000))));
