// `statecraft run` of the fixture's `complete` scenario, end to end through the built binary,
// against spawning the bare fixture adapter with the same request and prompt (added time ≤ 250 ms
// median). Rounds are interleaved so load on the machine falls on both alike.
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { fixtureAdapterPath } from '@statecraft/adapter';
import { launchAttempt, planRun } from '@statecraft/run';
import { median } from './common.mjs';
import { FIXTURE, STATECRAFT, productHome, sampleRepository, timed } from './run-statecraft-helpers.mjs';

const PROMPT = 'scenario: complete';

function bareRequest(workspace) {
  const prompt = Buffer.from(PROMPT);
  const request = {
    protocol: 1,
    attempt: { runId: 'bench', number: 1 },
    workspace,
    baseRevision: 'HEAD',
    capabilities: { required: [], preferred: [] },
    limits: { maxTurns: null, allow: [], deny: [], removeTools: [], hooks: [] },
    deadline: { milliseconds: 60_000, at: new Date(Date.now() + 60_000).toISOString() },
    prompt: { sha256: createHash('sha256').update(prompt).digest('hex'), bytes: prompt.length },
    provider: null,
  };
  const file = join(mkdtempSync(join(tmpdir(), 'statecraft-bench-request-')), 'request.json');
  writeFileSync(file, JSON.stringify(request));
  return file;
}

export async function measureRunEndToEnd(rounds = 15) {
  const repository = sampleRepository();
  const home = productHome();
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, STATECRAFT_HOME: home };
  const request = bareRequest(repository);
  const bare = [];
  const run = [];
  const startup = [];
  // One warm-up of each, not counted: the first run pays the file cache and the namespace probe.
  await timed(FIXTURE, ['run', '--request', request], { env, input: PROMPT, cwd: repository });
  await timed(STATECRAFT, ['run', repository, '--adapter', 'fixture', '--prompt', PROMPT, '--json'], { env });
  for (let round = 0; round < rounds; round += 1) {
    bare.push((await timed(FIXTURE, ['run', '--request', request], { env, input: PROMPT, cwd: repository })).ms);
    const answer = await timed(STATECRAFT, ['run', repository, '--adapter', 'fixture', '--prompt', PROMPT, '--json'], { env });
    if (answer.code !== 0) throw new Error(`statecraft run exited ${answer.code}:\n${answer.stdout}`);
    run.push(answer.ms);
    startup.push((await timed(STATECRAFT, ['--help'], { env })).ms);
  }
  // The run path alone, in this process: plan + launch, no CLI start-up (module loading) to pay.
  const inProcess = [];
  const runRequest = {
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
  for (let round = 0; round < rounds; round += 1) {
    const started = performance.now();
    const planning = await planRun(runRequest);
    if (planning.kind !== 'planned') throw new Error(planning.message);
    const launch = await launchAttempt(planning.plan);
    if (launch.kind !== 'concluded') throw new Error(launch.message);
    inProcess.push(performance.now() - started);
  }
  const bareMedianMs = median(bare);
  const runMedianMs = median(run);
  const startupMedianMs = median(startup);
  const inProcessMedianMs = median(inProcess);
  return {
    rounds,
    bareMedianMs,
    runMedianMs,
    startupMedianMs,
    inProcessMedianMs,
    addedMs: runMedianMs - bareMedianMs,
    addedInProcessMs: inProcessMedianMs - bareMedianMs,
    ratio: runMedianMs / bareMedianMs,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await measureRunEndToEnd()));
