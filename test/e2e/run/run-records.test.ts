import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { appendFile, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WARDEN_NAME } from '@statecraft/run';
import { isAlive } from '../../fixtures/attempt-stream.js';
import { processesWithArgument } from '../../fixtures/processes-with-argument.js';
import { type SampleRepository, useTestTargets } from '../../fixtures/sample-repository.js';
import { spawnWitness } from '../../fixtures/spawn-witness.js';
import { finishedRun, parseJson, rowsRejoined, runStatecraft, startStatecraft } from '../../fixtures/statecraft-cli.js';

interface Account {
  runId: string;
  attempt: number;
  state: string;
  outcome: string;
  workspace: string;
  headCommit: string;
  refusalCount: number | string;
  records: { chain: string; intent: { line: number }; outcome: { line: number } | 'not-recorded' };
}
interface List {
  tornTail: 'none' | { bytes: number };
  attempts: { runId: string; attempt: number; state: string; outcome: string }[];
}

const targets = useTestTargets({ sharedRepository: false });

async function freshRepository(): Promise<SampleRepository> {
  const repository = await targets.fresh();
  return repository;
}

const run = (target: string, scenario: string, ...extra: string[]) =>
  runStatecraft(['run', target, '--adapter', 'fixture', '--prompt', `scenario: ${scenario}`, '--json', ...extra], { home: targets.home.path });

/** Waits until the chain holds an intent with no outcome: the supervisor has spawned. */
async function waitForIntent(target: string): Promise<List['attempts'][number]> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const list = await runStatecraft(['run', 'list', target, '--json'], { home: targets.home.path });
    if (list.exitCode === 0) {
      const running = parseJson<List>(list).attempts.find((attempt) => attempt.state === 'running');
      if (running !== undefined) return running;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('no intent appeared within 30 s');
}

/** The living processes whose environment carries this run id. */
async function processesOfRun(runId: string): Promise<number[]> {
  const { readdir } = await import('node:fs/promises');
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const environ = await readFile(`/proc/${entry}/environ`, 'latin1').catch(() => '');
    if (environ.includes(`STATECRAFT_RUN_ID=${runId}\0`)) found.push(Number(entry));
  }
  return found;
}

/**
 * Waits until the hung adapter has written all it will write — its progress event naming the
 * descendant it started has reached the kept stream. The intent is durable before the spawn
 * (R8.4), so a kill timed on the intent alone could land before any child exists; and an adapter
 * still writing when its supervisor dies meets a closed pipe and ends, leaving nothing to report.
 * Answers the kept stream's path.
 */
async function waitForHungAdapter(runId: string): Promise<string> {
  const { readdir } = await import('node:fs/promises');
  const targetsDir = join(targets.home.path, 'targets');
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    for (const key of await readdir(targetsDir).catch(() => [])) {
      const path = join(targetsDir, key, 'attempts', runId, '1', 'stream.ndjson');
      const stream = await readFile(path, 'utf8').catch(() => '');
      if (stream.includes('"descendantPid"')) return path;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the hung adapter of run ${runId} did not report its descendant within 30 s`);
}

/** Kills every living process whose environment carries this run id (what a dead supervisor left). */
async function killProcessesOfRun(runId: string): Promise<void> {
  for (const pid of await processesOfRun(runId)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
}

describe('the record chain is append-only, hash-linked and durable (R8.4, R8.5)', () => {
  it('run show --json prints the same value run --json printed', async () => {
    const target = await freshRepository();
    const first = await run(target.path, 'refuse');
    const account = parseJson<Account>(first);
    const shown = await runStatecraft(['run', 'show', target.path, account.runId, '--json'], { home: targets.home.path });
    expect(shown.exitCode).toBe(1);
    const expected: Record<string, unknown> = parseJson(first);
    // What opening the chain found, and what the checkout held beside its commit, are about that
    // run's start, not about the attempt: `run --json` alone says them.
    delete expected['truncatedTail'];
    delete expected['reclaimedLock'];
    delete expected['uncommitted'];
    expect(parseJson(shown)).toEqual(expected);
  });

  it('a second run while an attempt is live is refused naming the live one; nothing is appended (R8.5)', async () => {
    const target = await freshRepository();
    const hung = startStatecraft(['run', target.path, '--adapter', 'fixture', '--prompt', 'scenario: hang', '--deadline', '20s', '--json'], {
      home: targets.home.path,
    });
    const live = await waitForIntent(target.path);
    const second = await run(target.path, 'complete');
    expect(second.exitCode).toBe(2);
    const refusal = parseJson<{ refused: { reason: string; message: string } }>(second);
    expect(refusal.refused.reason).toBe('live-attempt');
    expect(refusal.refused.message).toContain(`run ${live.runId} attempt 1`);
    hung.kill('SIGINT');
    const ended = await finishedRun(hung);
    const cancelled = parseJson<Account>(ended);
    // The operator's interrupt is `cancelled`, an outcome the adapter never produces (R8.1).
    expect(cancelled.outcome).toBe('cancelled');
    expect(ended.exitCode).toBe(1);
    const list = parseJson<List>(await runStatecraft(['run', 'list', target.path, '--json'], { home: targets.home.path }));
    expect(list.attempts).toEqual([expect.objectContaining({ runId: live.runId, state: 'concluded', outcome: 'cancelled' })]);
  });

  it("a linked worktree of the target is the same target: its run is refused while the target's attempt is live, and both list one chain (R8.5)", async () => {
    const target = await freshRepository();
    const linked = `${target.path}-linked`;
    await promisify(execFile)('git', ['-C', target.path, 'worktree', 'add', '-q', '-b', 'side', linked]);
    try {
      const hung = startStatecraft(['run', target.path, '--adapter', 'fixture', '--prompt', 'scenario: hang', '--deadline', '20s', '--json'], {
        home: targets.home.path,
      });
      const live = await waitForIntent(target.path);
      const second = await run(linked, 'complete');
      expect(second.exitCode, second.stderr).toBe(2);
      expect(parseJson<{ refused: { reason: string; message: string } }>(second).refused).toMatchObject({
        reason: 'live-attempt',
        message: expect.stringContaining(`run ${live.runId} attempt 1`) as unknown,
      });
      hung.kill('SIGINT');
      await finishedRun(hung);
      const fromLinked = parseJson<List>(await runStatecraft(['run', 'list', linked, '--json'], { home: targets.home.path }));
      expect(fromLinked.attempts).toEqual([expect.objectContaining({ runId: live.runId, outcome: 'cancelled' })]);
      // The run is judged from the checkout it ran in, whose agent workspaces the checks must not see.
      const judged = await runStatecraft(['accept', linked, live.runId, '--json'], { home: targets.home.path });
      expect(judged.exitCode, judged.stderr).toBe(2);
      expect(judged.stderr).toContain(`run ${live.runId} ran in ${target.path}, not ${linked}`);
    } finally {
      await rm(linked, { recursive: true, force: true });
    }
  });

  it.each([
    ['SIGINT', 'the default containment (the boundary)', {}],
    ['SIGINT', 'the process-group fallback (boundary none)', { STATECRAFT_CONTAINMENT: 'process-group', STATECRAFT_BOUNDARY: 'none' }],
    // A service manager's stop and a closed terminal are the operator's too: without their own
    // handling node ended the supervisor at once, leaving a dangling intent, a stale lock and no answer.
    ['SIGTERM', 'the default containment (the boundary)', {}],
    ['SIGHUP', 'the default containment (the boundary)', {}],
  ] as const)('%s during an attempt is classified cancelled by the supervisor, with no survivor, under %s (R8.1, R7.3)', async (signal, _path, env) => {
    const target = await freshRepository();
    const hung = startStatecraft(['run', target.path, '--adapter', 'fixture', '--prompt', 'scenario: hang', '--deadline', '60s', '--json'], {
      home: targets.home.path,
      env,
    });
    const live = await waitForIntent(target.path);
    await waitForHungAdapter(live.runId);
    // The hung adapter and its setsid descendant (pids as this host sees them, whatever the namespace).
    const running = await processesOfRun(live.runId);
    expect(running.length).toBeGreaterThanOrEqual(2);
    hung.kill(signal);
    const ended = await finishedRun(hung);
    const account = parseJson<Account & { timedOut: boolean; posture: { survivors: unknown[] } }>(ended);
    expect(account).toMatchObject({ outcome: 'cancelled', cause: 'operator-cancel', timedOut: false });
    expect(account.posture.survivors).toEqual([]);
    // The setsid descendant went with the tree: nothing of the attempt is left running.
    for (const pid of running) expect(await isAlive(pid)).toBe(false);
    expect(await processesOfRun(live.runId)).toEqual([]);
    expect(ended.exitCode).toBe(1);
  });

  it('kill -9 of the supervisor during hang (boundary none, process group) leaves a dangling intent that run show and doctor report; a later run still appends', async () => {
    const target = await freshRepository();
    // Without the boundary and in the process-group fallback: bwrap's --die-with-parent (the next
    // test) and, under the PID namespace, setpriv's parent-death signal on unshare
    // (supervisor-killed-namespace-ends.test.ts) take the child down with the supervisor, and
    // doctor's orphan report needs an orphan.
    const hung = startStatecraft(
      ['run', target.path, '--adapter', 'fixture', '--prompt', 'scenario: hang', '--deadline', '60s', '--json', '--boundary', 'none'],
      { home: targets.home.path, env: { STATECRAFT_CONTAINMENT: 'process-group' } },
    );
    const live = await waitForIntent(target.path);
    await waitForHungAdapter(live.runId);
    // The warden that would end the tree with its supervisor (supervisor-death-warden.ts) is killed
    // first, as the adapter itself may (the same user): doctor's orphan report needs an orphan.
    const wardens = processesWithArgument(WARDEN_NAME).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(live.runId));
    expect(wardens, "the attempt's warden").toHaveLength(1);
    for (const pid of wardens) process.kill(pid, 'SIGKILL');
    hung.kill('SIGKILL');
    await hung;
    expect(await isAlive(hung.pid ?? 0)).toBe(false);
    // A supervisor killed with -9 cannot kill its child: doctor names what is left, and kills nothing.
    const withOrphans = parseJson<{ findings: { kind: string; message: string }[] }>(await runStatecraft(['doctor', '--json'], { home: targets.home.path }));
    expect(withOrphans.findings).toContainEqual(
      expect.objectContaining({ kind: 'orphaned-processes', message: expect.stringContaining(live.runId) as unknown }),
    );
    await killProcessesOfRun(live.runId);

    const shown = await runStatecraft(['run', 'show', target.path, live.runId, '--json'], { home: targets.home.path });
    expect(shown.exitCode).toBe(1);
    const dangling = parseJson<Account>(shown);
    expect(dangling).toMatchObject({ state: 'dangling', outcome: 'not-recorded', refusalCount: 'not-recorded', headCommit: 'not-recorded' });
    expect(dangling.records.outcome).toBe('not-recorded');

    const doctor = await runStatecraft(['doctor', '--json'], { home: targets.home.path });
    expect(doctor.exitCode).toBe(1);
    const findings = parseJson<{ findings: { kind: string; message: string }[] }>(doctor).findings;
    expect(findings).toContainEqual(expect.objectContaining({ kind: 'dangling-intent', message: expect.stringContaining(live.runId) as unknown }));
    expect(findings).toContainEqual(expect.objectContaining({ kind: 'stale-lock' }));
    expect(findings.map((finding) => finding.kind)).not.toContain('orphaned-processes');

    // The dead attempt's TMPDIR is still there, until the supervisor taking its lock over removes it.
    const deadTemporary = () => readdirSync(tmpdir()).filter((name) => name.startsWith(`statecraft-${live.runId}-1-`));
    expect(deadTemporary(), "the killed attempt's TMPDIR").toHaveLength(1);
    // In text too, the next run says it took over the dead supervisor's lock (it was said only in --json).
    const later = await runStatecraft(['run', target.path, '--adapter', 'fixture', '--prompt', 'scenario: complete'], { home: targets.home.path });
    expect(later.exitCode).toBe(0);
    expect(deadTemporary(), "the killed attempt's TMPDIR, once its lock was taken over").toEqual([]);
    expect(rowsRejoined(later.stdout, 18)).toContain(`took over       the lock of run ${live.runId} attempt 1, whose supervisor (pid ${hung.pid}) was gone`);
    const list = parseJson<List>(await runStatecraft(['run', 'list', target.path, '--json'], { home: targets.home.path }));
    expect(list.attempts.map((attempt) => attempt.state)).toEqual(['dangling', 'concluded']);
  });

  it('kill -9 of the supervisor under the boundary takes the whole sandbox with it: no process of the run is left (R7.3, R12)', async () => {
    const target = await freshRepository();
    const hung = startStatecraft(['run', target.path, '--adapter', 'fixture', '--prompt', 'scenario: hang', '--deadline', '60s', '--json'], {
      home: targets.home.path,
    });
    const live = await waitForIntent(target.path);
    await waitForHungAdapter(live.runId);
    // The path that ran: the boundary's PID namespace, which the intent records before the spawn.
    const shown = parseJson<{ posture: { containment: { mechanism: string }; boundary: { mechanism: string } } }>(
      await runStatecraft(['run', 'show', target.path, live.runId, '--json'], { home: targets.home.path }),
    );
    expect(shown.posture.boundary.mechanism).toBe('bwrap');
    expect(await processesOfRun(live.runId)).not.toEqual([]);
    hung.kill('SIGKILL');
    await hung;
    // bwrap's --die-with-parent: the sandbox dies with the supervisor, setsid descendant included.
    const until = Date.now() + 5000;
    while ((await processesOfRun(live.runId)).length > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await processesOfRun(live.runId)).toEqual([]);
  });

  it('bytes added to the kept stream while the attempt runs are never sealed into the chain: the stream reads as altered (R8.4)', async () => {
    const target = await freshRepository();
    const hung = startStatecraft(['run', target.path, '--adapter', 'fixture', '--prompt', 'scenario: hang', '--deadline', '3s', '--json'], {
      home: targets.home.path,
    });
    const live = await waitForIntent(target.path);
    const streamFile = await waitForHungAdapter(live.runId);
    await appendFile(streamFile, '{"kind":"result","forged":true}\n');
    const ended = await finishedRun(hung);
    const account = parseJson<Account & { artifactCheck: Record<string, string> }>(ended);
    // The chain holds the digest of what the supervisor read from the pipe, not of the file at the end.
    expect(account).toMatchObject({
      outcome: 'interrupted',
      artifactCheck: { stream: 'altered', stderr: 'verified', request: 'verified', result: 'verified' },
    });
    const shown = parseJson<{ artifactCheck: Record<string, string> }>(
      await runStatecraft(['run', 'show', target.path, live.runId, '--json'], { home: targets.home.path }),
    );
    expect(shown.artifactCheck.stream).toBe('altered');
  });

  it('an edit to the last record that its own body contradicts makes run list refuse, as run show does (R8.4)', async () => {
    // No later link vouches for the final record, so run list reads it whole rather than skimming it.
    const target = await freshRepository();
    const refused = parseJson<Account>(await run(target.path, 'refuse'));
    const chain = refused.records.chain;
    const text = await readFile(chain, 'utf8');
    const forged = text.replace('"outcome":"refused","cause":"none","refusalCount":1', '"outcome":"completed","cause":"none","refusalCount":0');
    expect(forged).not.toBe(text);
    await writeFile(chain, forged);
    const list = await runStatecraft(['run', 'list', target.path], { home: targets.home.path });
    expect(list.exitCode).toBe(2);
    expect(list.stderr).toContain('line 2');
    expect(list.stderr).toContain('repeated summary field disagrees');
  });

  it('flipping one byte in an earlier record makes run list refuse with exit 2, naming the record', async () => {
    const target = await freshRepository();
    const first = parseJson<Account>(await run(target.path, 'complete'));
    await run(target.path, 'refuse');
    const chain = first.records.chain;
    const bytes = await readFile(chain);
    // Flip one byte inside the first record's run id (a digit), keeping the JSON valid.
    const at = bytes.indexOf(Buffer.from(`"runId":"${first.runId}"`)) + '"runId":"'.length;
    bytes[at] = bytes[at] === 0x31 ? 0x32 : 0x31;
    await writeFile(chain, bytes);
    const list = await runStatecraft(['run', 'list', target.path], { home: targets.home.path });
    expect(list.exitCode).toBe(2);
    expect(list.stderr).toContain('line 1');
    expect(list.stderr).toContain('broken link');
    const branches = await target.git('branch', '--list', 'statecraft/*');
    // Without its checkpoint an append verifies from the beginning (run-chain-checkpoint.test.ts
    // shows that with one it reads only what follows it).
    await rm(join(dirname(chain), 'chain.checkpoint.json'));
    const again = await run(target.path, 'complete');
    expect(again.exitCode).toBe(2);
    // Nothing was repaired: the altered bytes are still there.
    expect(await readFile(chain)).toEqual(bytes);
    // The refused attempt's workspace, prepared beside the chain's reading, was withdrawn.
    expect(await target.git('branch', '--list', 'statecraft/*')).toBe(branches);
    expect((await target.git('worktree', 'list')).split('\n')).toHaveLength(3);
  });

  it('a torn final line is reported, then truncated before the next append; earlier bytes are untouched', async () => {
    const target = await freshRepository();
    const first = parseJson<Account>(await run(target.path, 'complete'));
    const before = await readFile(first.records.chain);
    await appendFile(first.records.chain, '{"prev":"torn');
    const list = parseJson<List>(await runStatecraft(['run', 'list', target.path, '--json'], { home: targets.home.path }));
    expect(list.tornTail).toMatchObject({ bytes: 13 });
    const second = await run(target.path, 'complete');
    expect(second.exitCode).toBe(0);
    expect(parseJson<{ truncatedTail: unknown }>(second).truncatedTail).toMatchObject({ offset: before.length, bytes: 13 });
    const after = await readFile(first.records.chain);
    expect(after.subarray(0, before.length)).toEqual(before);
    expect(after.includes(Buffer.from('"prev":"torn'))).toBe(false);
    const relisted = parseJson<List>(await runStatecraft(['run', 'list', target.path, '--json'], { home: targets.home.path }));
    expect(relisted.tornTail).toBe('none');
    expect(relisted.attempts).toHaveLength(2);
  });

  it("a retry appends a new attempt in the run's own workspace; earlier records are not edited (R8.5, R8.6)", async () => {
    const target = await freshRepository();
    const first = parseJson<Account>(await run(target.path, 'refuse'));
    const before = await readFile(first.records.chain);
    const retry = parseJson<Account>(await run(target.path, 'complete', '--retry', first.runId));
    expect(retry).toMatchObject({ runId: first.runId, attempt: 2, workspace: first.workspace, outcome: 'completed' });
    expect((await readFile(first.records.chain)).subarray(0, before.length)).toEqual(before);
  });

  it('a foreign directory where a workspace would go is refused by name (R8.6)', async () => {
    const target = await freshRepository();
    const first = parseJson<Account>(await run(target.path, 'complete'));
    const { rm, mkdir } = await import('node:fs/promises');
    await target.git('worktree', 'remove', '--force', first.workspace);
    await mkdir(first.workspace, { recursive: true });
    await writeFile(`${first.workspace}/not-a-worktree.txt`, 'mine\n');
    const retry = await run(target.path, 'complete', '--retry', first.runId);
    expect(retry.exitCode).toBe(2);
    const refusal = parseJson<{ refused: { reason: string; message: string } }>(retry);
    expect(refusal.refused.reason).toBe('workspace');
    expect(refusal.refused.message).toContain(first.workspace);
    expect(await readFile(`${first.workspace}/not-a-worktree.txt`, 'utf8')).toBe('mine\n');
    await rm(first.workspace, { recursive: true });
  });

  it('an empty directory where the workspace goes (a supervisor killed before git added it) is added into, not refused (R8.6)', async () => {
    // The workspace's directory is made empty before `git worktree add`, so the sandbox can be set
    // up while git works (prepare-workspace.ts): a kill in between leaves exactly this.
    const target = await freshRepository();
    const first = parseJson<Account>(await run(target.path, 'complete'));
    const { mkdir } = await import('node:fs/promises');
    await target.git('worktree', 'remove', '--force', first.workspace);
    await mkdir(first.workspace);
    const retry = parseJson<Account>(await run(target.path, 'complete', '--retry', first.runId));
    expect(retry).toMatchObject({ runId: first.runId, attempt: 2, workspace: first.workspace, outcome: 'completed' });
    expect(await target.git('worktree', 'list', '--porcelain')).toContain(`worktree ${first.workspace}`);
  });

  it('output carries no ANSI control sequence when stdout is not a terminal (issue 3 item 9)', async () => {
    const target = await freshRepository();
    const human = await runStatecraft(['run', target.path, '--adapter', 'fixture', '--prompt', 'scenario: complete'], { home: targets.home.path });
    expect(human.exitCode).toBe(0);
    expect(human.stdout).toContain('completed');
    expect(human.stdout).not.toContain('\u001b');
  });

  it('an i/o failure writing the intent exits 4 naming the path, and nothing is spawned or appended', async () => {
    const target = await freshRepository();
    const first = parseJson<Account>(await run(target.path, 'complete'));
    const targetDirectory = dirname(first.records.chain);
    // `attempts` becomes a file: the next attempt's directory cannot be made.
    await rename(join(targetDirectory, 'attempts'), join(targetDirectory, 'attempts-moved'));
    await writeFile(join(targetDirectory, 'attempts'), 'not a directory\n');
    const chainBefore = await readFile(first.records.chain);
    const witness = await spawnWitness();
    const spawnLog = witness.log;
    const failed = await runStatecraft(
      ['run', target.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--pass', 'STATECRAFT_FIXTURE_SPAWN_LOG', '--json'],
      { home: targets.home.path, env: witness.env },
    );
    expect(failed.exitCode).toBe(4);
    const answer = parseJson<{ failed: { stage: string; path: string; spawned: boolean } }>(failed);
    expect(answer.failed).toMatchObject({ stage: 'intent', spawned: false });
    // The path is the directory that could not be made: this attempt's, under the file `attempts`.
    expect({ under: dirname(dirname(answer.failed.path)), attempt: basename(answer.failed.path) }).toEqual({
      under: join(targetDirectory, 'attempts'),
      attempt: '1',
    });
    expect(failed.stderr).toContain(targetDirectory);
    expect(await readFile(first.records.chain)).toEqual(chainBefore);
    await expect(readFile(spawnLog, 'utf8')).rejects.toThrow();
    // The same run with the directory back does spawn, and the log shows it: the check above can fail.
    const { rm } = await import('node:fs/promises');
    await rm(join(targetDirectory, 'attempts'));
    await rename(join(targetDirectory, 'attempts-moved'), join(targetDirectory, 'attempts'));
    const ran = await runStatecraft(['run', target.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--pass', 'STATECRAFT_FIXTURE_SPAWN_LOG'], {
      home: targets.home.path,
      env: witness.env,
    });
    expect(ran.exitCode).toBe(0);
    expect(await readFile(spawnLog, 'utf8')).toMatch(/^\d+\n$/);
  });

  it('run show re-digests the files kept beside the chain: an altered result file is reported as altered (R8.4)', async () => {
    const target = await freshRepository();
    const first = parseJson<Account & { artifactCheck: Record<string, string>; artifacts: { result: { path: string } } }>(await run(target.path, 'refuse'));
    expect(first.artifactCheck).toEqual({ request: 'verified', prompt: 'verified', stream: 'verified', stderr: 'verified', result: 'verified' });
    await appendFile(first.artifacts.result.path, ' ');
    const shown = parseJson<{ artifactCheck: Record<string, string> }>(
      await runStatecraft(['run', 'show', target.path, first.runId, '--json'], { home: targets.home.path }),
    );
    expect(shown.artifactCheck).toMatchObject({ result: 'altered', request: 'verified' });
  });

  it("an attempt's head becomes stale once its run's branch moves on; it was current when recorded (R8.3)", async () => {
    const target = await freshRepository();
    const first = parseJson<Account & { headIs: string }>(await run(target.path, 'complete'));
    expect(first.headIs).toBe('current');
    await target.git('-C', first.workspace, 'commit', '--quiet', '--allow-empty', '-m', 'a later commit on the run branch');
    const shown = parseJson<{ headIs: string; headCommit: string }>(
      await runStatecraft(['run', 'show', target.path, first.runId, '--json'], { home: targets.home.path }),
    );
    expect(shown).toMatchObject({ headIs: 'stale', headCommit: first.headCommit });
  });

  it('--base names the commit the workspace starts from; a revision that names none is refused before anything is appended (R8.6)', async () => {
    const target = await freshRepository();
    const first = await target.git('rev-parse', 'HEAD');
    await writeFile(join(target.path, 'later.txt'), 'later\n');
    await target.git('add', 'later.txt');
    await target.git('commit', '--quiet', '-m', 'a later commit');
    const based = parseJson<Account & { baseCommit: string }>(await run(target.path, 'complete', '--base', 'HEAD~1'));
    expect(based.baseCommit).toBe(first);
    expect(await target.git('-C', based.workspace, 'rev-parse', 'HEAD')).toBe(first);
    const refused = await run(target.path, 'complete', '--base', 'no-such-revision');
    expect(refused.exitCode).toBe(2);
    expect(parseJson<{ refused: { reason: string; message: string } }>(refused).refused).toMatchObject({
      reason: 'base-commit',
      message: expect.stringContaining('revision no-such-revision does not name a commit') as unknown,
    });
    const list = parseJson<List>(await runStatecraft(['run', 'list', target.path, '--json'], { home: targets.home.path }));
    expect(list.attempts).toHaveLength(1);
  });

  it('a retry of a run the target has no record of, or showing one, is refused (exit 2) naming it', async () => {
    const target = await freshRepository();
    const unknown = '20261130T000000Z-000000';
    const retry = await run(target.path, 'complete', '--retry', unknown);
    expect(retry.exitCode).toBe(2);
    expect(parseJson<{ refused: { reason: string; message: string } }>(retry).refused).toMatchObject({
      reason: 'unknown-run',
      message: expect.stringContaining(unknown) as unknown,
    });
    const shown = await runStatecraft(['run', 'show', target.path, unknown], { home: targets.home.path });
    expect(shown.exitCode).toBe(2);
    expect(shown.stderr).toContain(unknown);
  });
});
