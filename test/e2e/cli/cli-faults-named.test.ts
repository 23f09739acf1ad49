import { execFile } from 'node:child_process';
import { mkdir, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { writeFiles } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, runStatecraft, STATECRAFT_BIN, statecraftEnvironment } from '../../fixtures/statecraft-cli.js';

const targets = useTestTargets();
const scratch = scratchDirectories();

/** `run` of the fixture on `repository` with `flags` added, which must be a usage error (exit 3): its message. */
async function usageMessageOfRun(repository: string, flags: readonly string[]): Promise<string> {
  const answer = await runStatecraft(['run', repository, '--adapter', 'fixture', '--prompt', 'scenario: complete', ...flags, '--json'], {
    home: targets.home.path,
  });
  expect(answer.exitCode, answer.stderr).toBe(3);
  return parseJson<{ usage: { message: string } }>(answer).usage.message;
}

/** Neither a stack trace nor the words for a defect: a foreseeable fault is named, not reported as a bug. */
function expectNoStack(stderr: string): void {
  expect(stderr).not.toContain('unexpected failure');
  expect(stderr).not.toMatch(/\n\s+at /);
}

/**
 * Faults an operator can cause or meet, each answered with the exit code of its class, the file or
 * argument named, and no stack trace (R11), never a stack and exit 4 or 1, or an answer for the
 * wrong thing.
 */
describe('foreseeable faults are named in their exit class, never as a defect (R11)', () => {
  it('qualification records that cannot be listed or written: exit 4 naming the directory, for qualifications, env plan and qualify', async () => {
    const directory = await scratch.make('statecraft-home-a-file');
    const home = join(directory, 'home');
    await writeFile(home, 'not a directory\n');
    for (const args of [
      ['qualifications', 'list', '--json'],
      ['env', 'plan', targets.repository.path, '--adapter', 'fixture', '--json'],
      // The suite is not run at all: its pass could not be recorded, and the fault is the home's, not the adapter's.
      ['qualify', '--fixture', '--json'],
    ]) {
      const answer = await runStatecraft(args, { home });
      expect(answer.exitCode, answer.stderr).toBe(4);
      expect(parseJson<{ failed: { path: string } }>(answer).failed.path).toBe(join(home, 'qualifications'));
      expectNoStack(answer.stderr);
    }
  });

  it('an answer that cannot be written (stdout on a full device): exit 4 naming stdout; the attempt stays recorded', async () => {
    const repository = await targets.fresh();
    // The shell opens /dev/full as the CLI's own stdout (execa would put a pipe of its own between).
    const args = ['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'];
    const ran = await execa('sh', ['-c', 'exec "$0" "$@" >/dev/full', STATECRAFT_BIN, ...args], {
      env: statecraftEnvironment(targets.home.path),
      extendEnv: false,
      reject: false,
    });
    expect(ran.exitCode, String(ran.stderr)).toBe(4);
    expect(String(ran.stderr)).toContain('statecraft: stdout: cannot write the answer (ENOSPC)');
    expectNoStack(String(ran.stderr));
    const list = parseJson<{ attempts: { outcome: string }[] }>(await runStatecraft(['run', 'list', repository.path, '--json'], { home: targets.home.path }));
    expect(list.attempts).toEqual([expect.objectContaining({ outcome: 'completed' })]);
  });

  it('a misspelt STATECRAFT_CONTAINMENT is a usage error (exit 3) for run, accept and qualify, before anything starts', async () => {
    const repository = await targets.fresh();
    for (const args of [
      ['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'],
      ['accept', repository.path, '20261130T000000Z-0a0b0c', '--json'],
      ['qualify', '--fixture', '--json'],
    ]) {
      const answer = await runStatecraft(args, { home: targets.home.path, env: { STATECRAFT_CONTAINMENT: 'bogus' } });
      expect(answer.exitCode, `${args.join(' ')}\n${answer.stderr}`).toBe(3);
      expect(parseJson<{ usage: { message: string } }>(answer).usage.message).toContain('STATECRAFT_CONTAINMENT=bogus is not understood');
      expectNoStack(answer.stderr);
    }
    expect(await readdir(join(targets.home.path, 'targets')).catch(() => [])).not.toContain(expect.stringContaining(repository.path));
  });

  it.each([
    [['--pass', ''], '--pass "": not an environment variable\'s name'],
    [['--pass', 'A=B'], '--pass "A=B": not an environment variable\'s name'],
    [['--require', 'turn-limit', '--require', 'turn-limit'], '--require turn-limit: given twice'],
    [['--prefer', 'cost-report', '--prefer', 'cost-report'], '--prefer cost-report: given twice'],
  ])('run %j is a usage error naming the flag (exit 3), not an i/o failure at the intent; nothing is appended', async (flags, said) => {
    const repository = await targets.fresh();
    expect(await usageMessageOfRun(repository.path, flags)).toBe(said);
    const list = parseJson<{ attempts: unknown[] }>(await runStatecraft(['run', 'list', repository.path, '--json'], { home: targets.home.path }));
    expect(list.attempts).toEqual([]);
  });

  it('an empty target is a usage error, not the current directory', async () => {
    const repository = await targets.fresh();
    for (const args of [
      ['run', '', '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'],
      ['run', 'list', '', '--json'],
      ['env', 'plan', '', '--adapter', 'fixture', '--json'],
    ]) {
      const answer = await runStatecraft(args, { home: targets.home.path, cwd: repository.path });
      expect(answer.exitCode, answer.stderr).toBe(3);
      expect(parseJson<{ usage: { message: string } }>(answer).usage.message).toBe('<target> is empty');
    }
    const list = parseJson<{ attempts: unknown[] }>(await runStatecraft(['run', 'list', repository.path, '--json'], { home: targets.home.path }));
    expect(list.attempts).toEqual([]);
  });

  it('an empty run id is a usage error whose advice is a run id, not a path', async () => {
    const repository = await targets.fresh();
    for (const args of [
      ['accept', repository.path, '', '--json'],
      ['run', 'show', repository.path, '', '--json'],
    ]) {
      const answer = await runStatecraft(args, { home: targets.home.path });
      expect(answer.exitCode, answer.stderr).toBe(3);
      const usage = parseJson<{ usage: { message: string; next: string } }>(answer).usage;
      expect(usage).toEqual({ message: '<run> is empty', next: 'name a run id, as `statecraft run list <target>` prints it' });
    }
  });

  it('a run id of the wrong shape is a usage error (exit 3) naming it, in run show, accept and --retry', async () => {
    // `../../x` read as a run the target has no record of (exit 2).
    const repository = await targets.fresh();
    for (const [args, where] of [
      [['run', 'show', repository.path, '../../x', '--json'], '<run>'],
      [['accept', repository.path, '20261130T000000Z-0a0b0c/', '--json'], '<run>'],
      [['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--retry', '../../x', '--json'], '--retry'],
    ] as const) {
      const answer = await runStatecraft([...args], { home: targets.home.path });
      expect(answer.exitCode, answer.stderr).toBe(3);
      const usage = parseJson<{ usage: { message: string; next: string } }>(answer).usage;
      expect(usage.message).toMatch(new RegExp(`^${where.replace(/[-<>]/g, '\\$&')} ".*" is not a run id$`));
      expect(usage.next).toContain('statecraft run list <target>');
    }
  });

  it('run list and run show of a path that is no repository and has no records are refused (exit 2), not "0 attempts"', async () => {
    const missing = join(targets.repository.path, 'no-such-directory');
    for (const args of [
      ['run', 'list', missing, '--json'],
      ['run', 'show', missing, '20261130T000000Z-0a0b0c', '--json'],
    ]) {
      const answer = await runStatecraft(args, { home: targets.home.path });
      expect(answer.exitCode, answer.stderr).toBe(2);
      expect(parseJson<{ refused: { message: string } }>(answer).refused.message).toBe(
        `${missing}: no such target directory, and statecraft holds no records for it`,
      );
    }
  });

  it("a bare repository is refused with git's own reason", async () => {
    const directory = await scratch.make('statecraft-bare');
    await promisify(execFile)('git', ['init', '-q', '--bare', directory]);
    const answer = await runStatecraft(['run', directory, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], { home: targets.home.path });
    expect(answer.exitCode).toBe(2);
    expect(parseJson<{ refused: { message: string } }>(answer).refused.message).toContain(
      `${directory}: not a git repository's checkout (a target must be one; git: fatal: this operation must be run in a work tree)`,
    );
  });

  it('doctor reports a product home run could not use (a path that does not resolve), and a stray file among the targets', async () => {
    const directory = await scratch.make('statecraft-doctor-homes');
    const looping = join(directory, 'loop');
    await symlink('loop', looping);
    const loop = await runStatecraft(['doctor', '--json'], { home: looping });
    expect(loop.exitCode, loop.stderr).toBe(1);
    expect(parseJson<{ findings: unknown[] }>(loop).findings).toEqual([
      { kind: 'home-unusable', path: looping, message: `${looping}: the product home's path does not resolve (ELOOP)` },
    ]);

    const home = join(directory, 'home');
    await mkdir(join(home, 'targets'), { recursive: true });
    await writeFile(join(home, 'targets', 'junkfile'), '');
    const stray = await runStatecraft(['doctor', '--json'], { home });
    expect(stray.exitCode, stray.stderr).toBe(1);
    // Named for what it is, never as a lock that does not exist.
    expect(parseJson<{ findings: { kind: string }[] }>(stray).findings).toEqual([expect.objectContaining({ kind: 'unexpected-entry' })]);

    // A qualification record cut short is evidence damaged: qualifications list said so, doctor did not.
    await mkdir(join(home, 'qualifications'));
    const cut = join(home, 'qualifications', 'fixture-1.0.0-000000000000-20261201t000000z.json');
    await writeFile(cut, '{"kind":"statecraft-qualification","recordVersion":1,');
    const withCut = await runStatecraft(['doctor', '--json'], { home });
    expect(parseJson<{ findings: { kind: string; path: string }[] }>(withCut).findings).toContainEqual(
      expect.objectContaining({ kind: 'invalid-qualification-record', path: cut }),
    );
  });

  it.each([
    [['--prompt', 'scenario: refuse'], '--prompt is given more than once; give it once'],
    [['--adapter', 'codex'], '--adapter is given more than once; give it once'],
    [['--check-deadline', '5s'], '--check-deadline applies only with --accept'],
    [['--retry', '20261130T000000Z-0a0b0c', '--base', 'HEAD'], '--base cannot be given with --retry'],
  ])('run … %j: an option repeated or idle is a usage error (exit 3), never silently dropped', async (flags, said) => {
    const repository = await targets.fresh();
    expect(await usageMessageOfRun(repository.path, flags)).toContain(said);
  });

  it('a product home inside the target is refused (exit 2): records never live in the repository (R8.4)', async () => {
    const repository = await targets.fresh();
    const home = join(repository.path, '.records');
    const answer = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], { home });
    expect(answer.exitCode, answer.stderr).toBe(2);
    expect(parseJson<{ refused: { message: string } }>(answer).refused.message).toContain(`${home}: the product home is inside the target ${repository.path}`);
    expect(await readdir(repository.path)).not.toContain('.records');
  });

  it('a target path holding a line break is refused whole, never cut at the break', async () => {
    const directory = await scratch.make('statecraft-line-break');
    const target = join(directory, 'new\nline');
    await mkdir(target);
    await promisify(execFile)('git', ['init', '-q', target]);
    const answer = await runStatecraft(['run', target, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], { home: targets.home.path });
    expect(answer.exitCode, answer.stderr).toBe(2);
    expect(parseJson<{ refused: { message: string } }>(answer).refused.message).toContain(
      `${JSON.stringify(target)}: a target path holding a line break is not supported`,
    );
  });

  it('env plan refuses a project declaration that is not a regular file, as run does', async () => {
    const repository = await targets.fresh();
    await mkdir(join(repository.path, '.statecraft', 'environment.json'), { recursive: true });
    const plan = await runStatecraft(['env', 'plan', repository.path, '--adapter', 'fixture', '--json'], { home: targets.home.path });
    expect(plan.exitCode, plan.stderr).toBe(2);
    expect(parseJson<{ refused: { message: string } }>(plan).refused.message).toContain('the project declaration is not a regular file');
  });

  it("a misspelt key in the project declaration's acceptance section is refused naming it, never dropped without a word", async () => {
    const repository = await targets.fresh();
    await writeFiles(repository, {
      '.statecraft/environment.json': '{"project":{"commands":["grep"]},"acceptance":{"checks":["grep -q x README.md"],"authorty":["ci/"]}}\n',
    });
    const answer = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--accept', '--json'], {
      home: targets.home.path,
    });
    expect(answer.exitCode, answer.stderr).toBe(2);
    expect(parseJson<{ refused: { message: string } }>(answer).refused.message).toContain('field "acceptance": Unrecognized key: "authorty"');
  });

  it('accept on a target whose lock cannot be taken (the lock path is a directory) is exit 4 naming the lock, without a stack', async () => {
    const repository = await targets.fresh();
    const ran = parseJson<{ runId: string; records: { chain: string } }>(
      await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], { home: targets.home.path }),
    );
    const lock = join(dirname(ran.records.chain), 'lock');
    await mkdir(lock);
    const answer = await runStatecraft(['accept', repository.path, ran.runId, '--json'], { home: targets.home.path });
    expect(answer.exitCode, answer.stderr).toBe(4);
    expect(parseJson<{ failed: { path: string } }>(answer).failed.path).toBe(lock);
    expectNoStack(answer.stderr);
    // No staging file of the lock is left beside it.
    expect((await readdir(dirname(lock))).filter((name) => name.startsWith('lock.'))).toEqual([]);
  });

  it.each(['chain.jsonl', 'lock', 'chain.checkpoint.json'])(
    'a FIFO where statecraft keeps %s is named, never waited on: every verb ends (before, each hung, and run ignored SIGTERM)',
    async (name) => {
      const repository = await targets.fresh();
      const ran = parseJson<{ records: { chain: string } }>(
        await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], { home: targets.home.path }),
      );
      const path = join(dirname(ran.records.chain), name);
      await rm(path, { force: true });
      await promisify(execFile)('mkfifo', [path]);
      for (const args of [
        ['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'],
        ['run', 'list', repository.path, '--json'],
        ['doctor', '--json'],
      ]) {
        // A verb that waited on the FIFO would be ended by this timeout, and exit -1.
        const answer = await runStatecraft(args, { home: targets.home.path, timeoutMs: 20_000 });
        expect({ args, exited: answer.exitCode >= 0 }).toEqual({ args, exited: true });
        expectNoStack(answer.stderr);
      }
      const list = await runStatecraft(['run', 'list', repository.path, '--json'], { home: targets.home.path, timeoutMs: 20_000 });
      if (name === 'chain.jsonl') {
        expect(list.exitCode).toBe(4);
        expect(parseJson<{ failed: { message: string } }>(list).failed.message).toContain('not a regular file');
      }
      await rm(path, { force: true });
    },
  );

  it("doctor names an attempt's files that no record names (a supervisor killed before its intent was written)", async () => {
    const directory = await scratch.make('statecraft-unrecorded-attempt');
    const home = join(directory, 'home');
    const repository = await targets.fresh();
    const ran = parseJson<{ runId: string; records: { chain: string } }>(
      await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], { home }),
    );
    expect((await runStatecraft(['doctor', '--json'], { home })).exitCode).toBe(0);
    // What `run` writes before its intent: the attempt's directory with its request and prompt.
    const left = join(dirname(ran.records.chain), 'attempts', '20261201T000000Z-0a0b0c', '1');
    await mkdir(left, { recursive: true });
    await writeFile(join(left, 'prompt.txt'), 'scenario: complete');
    const doctor = await runStatecraft(['doctor', '--json'], { home });
    expect(doctor.exitCode).toBe(1);
    const workspace = join(repository.path, '.statecraft', 'state', 'workspaces', '20261201T000000Z-0a0b0c');
    expect(parseJson<{ findings: { kind: string; path: string }[] }>(doctor).findings).toEqual([
      expect.objectContaining({
        kind: 'unrecorded-attempt-files',
        path: left,
        message: expect.stringContaining(
          `nothing of it is left in ${repository.path} (no worktree at ${workspace}, no branch statecraft/20261201T000000Z-0a0b0c)`,
        ) as unknown,
      }),
    ]);
    // What such a supervisor leaves in the repository when it was killed after `git worktree add`.
    await promisify(execFile)('git', ['-C', repository.path, 'worktree', 'add', '-q', '-b', 'statecraft/20261201T000000Z-0a0b0c', workspace]);
    const [finding] = parseJson<{ findings: { message: string }[] }>(await runStatecraft(['doctor', '--json'], { home })).findings;
    const removal = `git -C ${repository.path} worktree remove --force ${workspace}; git -C ${repository.path} branch -D statecraft/20261201T000000Z-0a0b0c`;
    expect(finding?.message).toContain(
      `left in ${repository.path}: the worktree ${workspace} and the branch statecraft/20261201T000000Z-0a0b0c (remove with: ${removal}); doctor removes nothing`,
    );
    // The commands it names remove them.
    for (const command of removal.split('; ')) await promisify(execFile)('sh', ['-c', command]);
    const after = parseJson<{ findings: { message: string }[] }>(await runStatecraft(['doctor', '--json'], { home }));
    expect(after.findings[0]?.message).toContain(`nothing of it is left in ${repository.path}`);
    // An unrecorded attempt of a recorded run (a --retry killed before its intent) shares that run's
    // worktree and branch, which hold the recorded attempt's candidate: they are never offered for removal.
    const retried = join(dirname(ran.records.chain), 'attempts', ran.runId, '2');
    await mkdir(retried, { recursive: true });
    const both = parseJson<{ findings: { path: string; message: string }[] }>(await runStatecraft(['doctor', '--json'], { home }));
    const ofRetry = both.findings.find((finding) => finding.path === retried);
    expect(ofRetry?.message).toContain(`are those of run ${ran.runId}'s recorded attempts too, and stay`);
    expect(ofRetry?.message).not.toContain('remove with');
  });

  it('--prompt-file - reads the prompt from stdin; a prompt file that never ends is refused at its limit (exit 3)', async () => {
    const repository = await targets.fresh();
    const fromStdin = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt-file', '-', '--json'], {
      home: targets.home.path,
      input: 'scenario: refuse',
    });
    expect(fromStdin.exitCode, fromStdin.stderr).toBe(1);
    expect(parseJson(fromStdin)).toMatchObject({ outcome: 'refused' });
    const endless = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt-file', '/dev/zero', '--json'], { home: targets.home.path });
    expect(endless.exitCode, endless.stderr).toBe(3);
    expect(parseJson<{ usage: { message: string } }>(endless).usage.message).toBe('--prompt-file /dev/zero: longer than the limit of 67108864 bytes (64 MiB)');
  });
});
