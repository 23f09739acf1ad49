// Issue 12: `statecraft accept` with a three-command suite of trivial commands, end to end through
// the built binary, against running the same three commands bare in a fresh worktree of the same
// candidate (git worktree add, the commands one after another, git worktree remove). Target: added
// ≤ 200 ms median. Rounds are interleaved so load on the machine falls on both alike.
// Runnable alone (`node bench/accept-overhead.mjs`) or from bench/run.mjs.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './common.mjs';
import { STATECRAFT, productHome, sampleRepository, timed } from './run-statecraft-helpers.mjs';

const CHECKS = [['true'], ['test', '-f', 'answer.txt'], ['grep', '-q', 'ok', 'answer.txt']];

/** One program to its end, stdin closed (a check reads no prompt), as the bare side runs it. */
function runBare(file, args, { env, cwd }) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`${file} ${args.join(' ')} exited ${code}`))));
  });
}

/** One field of `times` (`0m1.230s`, or `1.23` in some shells) in seconds. */
function secondsOfTimes(field) {
  const match = /^(?:(\d+)m)?([\d.]+)s?$/.exec(field);
  return match === null ? 0 : Number(match[1] ?? 0) * 60 + Number(match[2]);
}

export async function measureAcceptOverhead(rounds = 11) {
  const repository = sampleRepository();
  mkdirSync(join(repository, '.statecraft'), { recursive: true });
  writeFileSync(
    join(repository, '.statecraft', 'environment.json'),
    JSON.stringify({ project: { commands: CHECKS.map(([program]) => program) }, acceptance: { checks: CHECKS.map((argv) => argv.join(' ')) } }),
  );
  execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@invalid', 'add', '-A'], { cwd: repository });
  execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@invalid', 'commit', '--quiet', '-m', 'suite'], { cwd: repository });
  const home = productHome();
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, STATECRAFT_HOME: home };
  // A completed run to judge: one per accept, since a recorded verdict is final (an attempt is judged once).
  const completedRun = async () => {
    const ran = await timed(STATECRAFT, ['run', repository, '--adapter', 'fixture', '--prompt', 'scenario: write\npath: answer.txt\ntext: ok', '--json'], {
      env,
    });
    if (ran.code !== 0) throw new Error(`the run to judge exited ${ran.code}`);
    return JSON.parse(ran.stdout);
  };
  const candidate = (await completedRun()).candidate.commit;

  const bareOnce = async (round) => {
    const started = performance.now();
    const worktree = join(repository, '.statecraft', 'state', 'bench', String(round));
    await runBare('git', ['worktree', 'add', '--detach', '--quiet', worktree, candidate], { env, cwd: repository });
    for (const [file, ...args] of CHECKS) await runBare(file, args, { env, cwd: worktree });
    await runBare('git', ['worktree', 'remove', '--force', worktree], { env, cwd: repository });
    return performance.now() - started;
  };
  const acceptOnce = async () => {
    // Untimed: only the accept is measured, of a run whose candidate holds the same tree as the bare side's.
    const account = await completedRun();
    // Under a shell whose `times` prints, last, the CPU of every process of the accept's tree
    // (statecraft, bwrap, git, the checks): on a shared machine CPU moves less than wall time.
    const answer = await timed(
      '/bin/sh',
      ['-c', '"$@" > "$OUT"; code=$?; times; exit $code', 'sh', STATECRAFT, 'accept', repository, account.runId, '--json'],
      {
        env: { ...env, OUT: join(home, 'accept-answer.json') },
      },
    );
    if (answer.code !== 0) throw new Error(`statecraft accept exited ${answer.code}`);
    const [user = 0, system = 0] = (answer.stdout.trim().split('\n').at(-1) ?? '').split(/\s+/).map(secondsOfTimes);
    return { ms: answer.ms, cpuMs: (user + system) * 1000 };
  };
  // One warm-up of each, not counted.
  await bareOnce('warm');
  await acceptOnce();
  const bare = [];
  const accept = [];
  const acceptCpu = [];
  for (let round = 0; round < rounds; round += 1) {
    bare.push(await bareOnce(round));
    const judged = await acceptOnce();
    accept.push(judged.ms);
    acceptCpu.push(judged.cpuMs);
  }
  const bareMedianMs = median(bare);
  const acceptMedianMs = median(accept);
  return { rounds, checks: CHECKS.length, bareMedianMs, acceptMedianMs, addedMs: acceptMedianMs - bareMedianMs, acceptCpuMedianMs: median(acceptCpu) };
}

export async function reportAcceptOverhead() {
  const fixed = (value, digits = 1) => value.toFixed(digits);
  const figure = await measureAcceptOverhead();
  console.log(
    `\n(f) statecraft accept, a suite of ${figure.checks} trivial commands (${figure.rounds} rounds interleaved; load average ${loadavg()
      .map((n) => fixed(n, 2))
      .join(' ')})`,
  );
  console.log(`    bare, fresh worktree   median ${fixed(figure.bareMedianMs)} ms (worktree add, the commands, worktree remove)`);
  console.log(
    `    statecraft accept      median ${fixed(figure.acceptMedianMs)} ms  added ${fixed(figure.addedMs)} ms (≤ 200)  ${figure.addedMs <= 200 ? 'meets target' : 'MISSES target'}`,
  );
  console.log(`    statecraft accept CPU  median ${fixed(figure.acceptCpuMedianMs)} ms (user + system of its whole process tree)`);
  console.log(`\n${JSON.stringify({ acceptOverhead: figure })}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await reportAcceptOverhead();
