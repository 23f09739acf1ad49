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
    const answer = await timed(STATECRAFT, ['accept', repository, account.runId, '--json'], { env });
    if (answer.code !== 0) throw new Error(`statecraft accept exited ${answer.code}:\n${answer.stdout}`);
    return answer.ms;
  };
  // One warm-up of each, not counted.
  await bareOnce('warm');
  await acceptOnce();
  const bare = [];
  const accept = [];
  for (let round = 0; round < rounds; round += 1) {
    bare.push(await bareOnce(round));
    accept.push(await acceptOnce());
  }
  const bareMedianMs = median(bare);
  const acceptMedianMs = median(accept);
  return { rounds, checks: CHECKS.length, bareMedianMs, acceptMedianMs, addedMs: acceptMedianMs - bareMedianMs };
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
  console.log(`\n${JSON.stringify({ acceptOverhead: figure })}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await reportAcceptOverhead();
