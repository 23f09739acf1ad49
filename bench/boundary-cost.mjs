// The evidence boundary's cost (issue 11): `statecraft run` of the fixture's `complete` scenario
// with the boundary (bwrap, its probe included) against `--boundary none` (unshare's PID
// namespace), in this process (plan + launch, no CLI start-up) and through the built CLI.
// Target: added ≤ 60 ms median. Rounds interleaved so load on the machine falls on both alike.
import { fixtureAdapterPath } from '@statecraft/adapter';
import { launchAttempt, planRun } from '@statecraft/run';
import { performance } from 'node:perf_hooks';
import { median } from './common.mjs';
import { STATECRAFT, productHome, sampleRepository, timed } from './run-statecraft-helpers.mjs';

const PROMPT = 'scenario: complete';

async function launchInProcess(request) {
  const started = performance.now();
  const planning = await planRun(request);
  if (planning.kind !== 'planned') throw new Error(planning.message);
  const launch = await launchAttempt(planning.plan);
  if (launch.kind !== 'concluded') throw new Error(launch.message);
  return performance.now() - started;
}

export async function measureBoundaryCost(rounds = 15) {
  const repository = sampleRepository();
  const home = productHome();
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, STATECRAFT_HOME: home };
  const base = {
    home,
    target: repository,
    adapter: { executable: fixtureAdapterPath() },
    prompt: PROMPT,
    required: [],
    preferred: [],
    deadlineMs: 60_000,
    maxTurns: null,
    allow: [],
    deny: [],
    pass: [],
    source: env,
  };
  const within = { ...base, boundary: { kind: 'bwrap' } };
  const without = { ...base, boundary: { kind: 'none', chosenBy: '--boundary none' } };
  // One warm-up of each, not counted.
  await launchInProcess(within);
  await launchInProcess(without);
  const inProcess = { bwrap: [], none: [] };
  const cli = { bwrap: [], none: [] };
  const args = ['run', repository, '--adapter', 'fixture', '--prompt', PROMPT, '--json'];
  for (let round = 0; round < rounds; round += 1) {
    inProcess.bwrap.push(await launchInProcess(within));
    inProcess.none.push(await launchInProcess(without));
    const on = await timed(STATECRAFT, [...args], { env });
    const off = await timed(STATECRAFT, [...args, '--boundary', 'none'], { env });
    if (on.code !== 0 || off.code !== 0) throw new Error(`statecraft run exited ${on.code} / ${off.code}`);
    cli.bwrap.push(on.ms);
    cli.none.push(off.ms);
  }
  const figure = (samples) => ({
    withMedianMs: median(samples.bwrap),
    withoutMedianMs: median(samples.none),
    addedMs: median(samples.bwrap) - median(samples.none),
  });
  return { rounds, inProcess: figure(inProcess), cli: figure(cli) };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await measureBoundaryCost()));
