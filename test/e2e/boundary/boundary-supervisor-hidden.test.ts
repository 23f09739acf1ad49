import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkBoundaryAvailability } from '@statecraft/environment';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { STATECRAFT_BIN, finishedRun, parseJson, startStatecraft, statecraftEnvironment, type CliRun } from '../../fixtures/statecraft-cli.js';

// R12: the probe's supervisor-hidden check cannot compare pid numbers across namespaces. A
// supervisor that is pid 1 of its own PID namespace — a container whose entrypoint is `statecraft
// run …` — would meet the sandbox's pid 1 (bwrap's init) and every launch would be refused, "pid 1
// is visible". The check knows the supervisor by its pid and its start time.
// Both ways are run for real: statecraft as pid 1 of a new PID namespace (`unshare --pid --fork
// --mount-proc`; inside a user namespace of its own where that is refused), and a sandbox that
// shares the supervisor's PID namespace (a bwrap first on PATH that drops `--unshare-pid`). Where
// either cannot be made here, the test says so and stops.

const targets = useTestTargets();
const scratch = scratchDirectories();
const HOST_PATH = process.env.PATH ?? '/usr/bin:/bin';

interface Probed {
  posture: { boundary: { mechanism: string; probe: { check: string; held: boolean; detail: string }[] } };
}

interface Refusal {
  refused: {
    stage: string;
    reason: string;
    message: string;
    detail: { reason: string; probe: { check: string; held: boolean; detail: string }[] | 'not-run' };
  };
}

type PidOne = { kind: 'made'; prefix: readonly string[]; how: string } | { kind: 'unavailable'; why: string };

let pidOne: Promise<PidOne> | undefined;

/** How a command is started here as pid 1 of a new PID namespace, or why it cannot be; found once per file. */
function whereStatecraftCanBePidOne(): Promise<PidOne> {
  pidOne ??= (async (): Promise<PidOne> => {
    const tries = [
      { prefix: ['unshare', '--pid', '--fork', '--mount-proc'], how: 'unshare --pid --fork --mount-proc' },
      {
        prefix: ['unshare', '--user', '--map-root-user', '--pid', '--fork', '--mount-proc'],
        how: 'unshare --user --map-root-user --pid --fork --mount-proc (not root here)',
      },
    ];
    const refusals: string[] = [];
    for (const attempt of tries) {
      const answer = await execa(attempt.prefix[0] ?? 'unshare', [...attempt.prefix.slice(1), '/bin/sh', '-c', 'echo $$'], { reject: false });
      if (answer.exitCode === 0 && answer.stdout.trim() === '1') return { kind: 'made', ...attempt };
      refusals.push(`${attempt.how}: ${answer.stderr.trim() || answer.message}`);
    }
    return { kind: 'unavailable', why: refusals.join('; ') };
  })();
  return pidOne;
}

/** `statecraft <args>` started as pid 1 of a new PID namespace, with the test's controlled environment. */
async function statecraftAsPidOne(where: Extract<PidOne, { kind: 'made' }>, args: readonly string[], env: Record<string, string> = {}): Promise<CliRun> {
  const [file = 'unshare', ...rest] = where.prefix;
  const ran = await execa(file, [...rest, STATECRAFT_BIN, ...args], {
    env: statecraftEnvironment(targets.home.path, env),
    extendEnv: false,
    reject: false,
    timeout: 60_000,
  });
  return { args, exitCode: ran.exitCode ?? -1, stdout: String(ran.stdout), stderr: String(ran.stderr) };
}

/** A `bwrap` first on PATH that runs the real one without `--unshare-pid`: its sandbox shares the supervisor's PID namespace. */
async function bwrapSharingThePidNamespace(): Promise<string> {
  const bin = await scratch.make('statecraft-bwrap-shared-pid-');
  const script = join(bin, 'bwrap');
  await writeFile(script, '#!/bin/sh\nfor a; do shift; [ "$a" = --unshare-pid ] || set -- "$@" "$a"; done\nexec /usr/bin/bwrap "$@"\n');
  await chmod(script, 0o755);
  return bin;
}

const runArgs = (target: string) => ['run', target, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'];

/** The refusal's failed checks, and the supervisor-hidden finding. */
function failedChecksOf(run: CliRun): { failed: string[]; supervisorHidden: string | undefined } {
  const { refused } = parseJson<Refusal>(run);
  expect(refused).toMatchObject({ stage: 'launch', reason: 'boundary', detail: { reason: 'probe-failed' } });
  const probe = refused.detail.probe === 'not-run' ? [] : refused.detail.probe;
  return {
    failed: probe.filter((check) => !check.held).map((check) => check.check),
    supervisorHidden: probe.find((check) => check.check === 'supervisor-hidden')?.detail,
  };
}

describe("the probe's supervisor-hidden check knows the supervisor, not its number (R12)", () => {
  it('statecraft as pid 1 of its own PID namespace (a container entrypoint) runs under the default boundary: exit 0, every probe check held', async () => {
    const where = await whereStatecraftCanBePidOne();
    if (where.kind === 'unavailable') {
      console.info(`no PID namespace could be made here (${where.why}): statecraft as pid 1 was not run`);
      return;
    }
    const boundary = await checkBoundaryAvailability(HOST_PATH);
    if (!boundary.available) {
      console.info(`the boundary cannot be established here (${boundary.reason}): statecraft as pid 1 under it was not run`);
      return;
    }
    console.info(`statecraft started as pid 1 by ${where.how}, under bwrap ${boundary.version}`);
    const run = await statecraftAsPidOne(where, runArgs(targets.repository.path));
    expect(run.exitCode, run.stderr).toBe(0);
    const { boundary: record } = parseJson<Probed>(run).posture;
    expect(record.mechanism).toBe('bwrap');
    expect(record.probe.length).toBe(11);
    expect(record.probe.filter((check) => !check.held)).toEqual([]);
    // The path that ran: the supervisor was pid 1, and the sandbox's pid 1 was found to be another process.
    const hidden = record.probe.find((check) => check.check === 'supervisor-hidden');
    expect(hidden?.detail).toMatch(/^pid 1 here is not the supervisor: it started at clock tick \d+, the supervisor at \d+$/);
  });

  it("still fails when the sandbox shares the supervisor's PID namespace: refused (exit 2), supervisor-hidden alone failed, naming the supervisor's pid and start — as an ordinary process and as pid 1", async () => {
    const bin = await bwrapSharingThePidNamespace();
    const PATH = `${bin}:${HOST_PATH}`;
    const shared = await checkBoundaryAvailability(PATH);
    if (!shared.available) {
      console.info(`bwrap cannot make a sandbox without its PID namespace here (${shared.reason}: ${shared.message}): not run`);
      return;
    }
    const started = startStatecraft(runArgs(targets.repository.path), { home: targets.home.path, env: { PATH } });
    const run = await finishedRun(started);
    expect(run.exitCode, run.stderr).toBe(2);
    const onHost = failedChecksOf(run);
    expect(onHost.failed).toEqual(['supervisor-hidden']);
    // bin/statecraft execs node: the pid started is the supervisor's.
    expect(onHost.supervisorHidden).toMatch(new RegExp(`^pid ${String(started.pid)} is visible: it started at clock tick \\d+, as the supervisor did$`));
    expect(parseJson<Refusal>(run).refused.message).toContain(`supervisor-hidden: pid ${String(started.pid)} is visible`);

    const where = await whereStatecraftCanBePidOne();
    if (where.kind === 'unavailable') {
      console.info(`no PID namespace could be made here (${where.why}): the shared sandbox was tried only with statecraft as an ordinary process`);
      return;
    }
    console.info(`a sandbox sharing the supervisor's PID namespace, tried with statecraft as an ordinary process and as pid 1 (${where.how})`);
    // The same number as the test above, where it was bwrap's init: here it is the supervisor, and is seen.
    const asPidOne = failedChecksOf(await statecraftAsPidOne(where, runArgs(targets.repository.path), { PATH }));
    expect(asPidOne.failed).toEqual(['supervisor-hidden']);
    expect(asPidOne.supervisorHidden).toMatch(/^pid 1 is visible: it started at clock tick \d+, as the supervisor did$/);
  });
});
