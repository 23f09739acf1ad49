import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { Containment, ContainmentMechanism, Survivor } from '@statecraft/adapter';
import type { StreamDigestSchema } from '@statecraft/adapter';
import { boundaryContainment, type EstablishedBoundary } from '@statecraft/environment';
import { startDeadline } from './deadline.js';
import { readKeepBound } from './keep-bound.js';
import { killTree } from './kill-tree.js';
import { chooseContainment, type ContainmentChoice } from '@statecraft/environment';
import { openGate, spawnContained } from './spawn-adapter.js';
import { EvidenceWriteError, StreamTee, type TeeEnding } from './stream-tee.js';
import { probeSurvivors, sweepLeftovers } from './survivors.js';
import { wardenFor } from './supervisor-death-warden.js';

type StreamDigest = z.infer<typeof StreamDigestSchema>;

/** What `superviseCheck` needs to run one acceptance check (R13.3). */
export interface SuperviseCheckOptions {
  /** The program, as an absolute path (resolved by the caller on the child's PATH), or `/bin/sh`. */
  file: string;
  /** Its arguments; no shell is involved unless `file` is one. */
  args: readonly string[];
  /** The fresh worktree of the candidate. */
  cwd: string;
  /** The constructed environment, passed whole (`extendEnv: false`, R5.1). */
  environment: Readonly<Record<string, string>>;
  /** This check's deadline, from its start (R7.2); a `gate` gives it when the check goes. */
  deadlineMs: number;
  /** Inherited by every descendant, so escaped ones are found (R7.3). */
  attemptTag: string;
  stdoutFile: string;
  stderrFile: string;
  containment?: 'auto' | Exclude<ContainmentMechanism, 'bwrap'>;
  /**
   * The protected evidence boundary (R12, R13.3), established and probed by the caller for the
   * suite. When given, the check runs inside it and its PID namespace is the containment.
   */
  boundary?: EstablishedBoundary;
  /** The operator's interrupt: the tree is killed as at the deadline, and the answer says so. */
  signal?: AbortSignal;
  /** The most bytes kept of each output (keep-bound.ts); reaching it stops the check. Absent: STATECRAFT_KEEP_BOUND, else 1 GiB. */
  keepBoundBytes?: number;
  /**
   * When the check may start, and its deadline then: a suite sets its next check up while the one
   * before it runs, and gives it what is then left of the suite's time. Under the boundary its
   * sandbox is set up at once and waits at the closer's gate, carrying no attempt tag until it goes
   * (GATED_CLOSER_SCRIPT); without the boundary nothing is spawned before the gate opens.
   * `withdrawn`: the waiting sandbox is killed, the output files removed, and the answer is
   * `withdrawn` — the check never ran. Absent: at once, with `deadlineMs`.
   */
  gate?: Promise<{ deadlineMs: number } | 'withdrawn'>;
}

/** One check as supervised: how it ended, never read as more than its exit status and the digests. */
export interface SupervisedCheck {
  exit: { code: number | null; signal: string | null } | 'not-observed';
  timedOut: boolean;
  cancelled: boolean;
  containment: Containment;
  survivors: Survivor[];
  startedAt: string;
  durationMs: number;
  stdout: StreamDigest;
  stderr: StreamDigest;
  /**
   * The output files that could not be written (a full disk, a file-size limit), each naming its
   * path: their digests then describe bytes the product home does not hold. The check was stopped
   * the moment the first write failed, as an adapter is (R8.4).
   */
  notKept: { path: string; message: string }[];
  /**
   * The output files that reached the keep bound: the check was stopped there, as at its deadline,
   * and each file holds exactly its first bound bytes (their digests are of those).
   */
  bound: string[];
  /**
   * The output files that could not be made durable, once both fsyncs have ended: the check is
   * answered while they run, and a caller awaits this before appending a record that names them
   * (a suite awaits every check's before it ends).
   */
  durable: Promise<{ path: string; message: string }[]>;
}

/**
 * Runs one check — a process that speaks no protocol — under the supervision an adapter gets
 * (R13.3): the constructed environment and the attempt tag, the same containment (the boundary's
 * PID namespace when given; else a PID namespace, else its own process group plus the tag sweep),
 * a deadline from its start, the whole tree killed at the deadline without waiting on a pipe a
 * survivor could hold, a bounded survivor probe, and stdout/stderr teed to files with their
 * digests. A check reads no prompt: its stdin is /dev/null, or behind the boundary's gate a pipe
 * closed as it goes. Throws only when the process could not be started at all (the caller counts
 * the check as not run); its output files are then removed, as for a withdrawn check.
 */
export async function superviseCheck(options: SuperviseCheckOptions): Promise<SupervisedCheck | 'withdrawn'> {
  const gate = options.gate ?? Promise.resolve({ deadlineMs: options.deadlineMs });
  const [choice, [stdoutTee, stderrTee]] = await Promise.all([
    containmentFor(options),
    StreamTee.openPair(options.keepBoundBytes ?? readKeepBound(), options.stdoutFile, options.stderrFile),
  ]);
  const tees = { stdout: stdoutTee, stderr: stderrTee };
  // A check that never started leaves no output files: no record will name them (doctor would
  // report them as a judgement's unrecorded files, R8.4).
  const removeOutputs = async (): Promise<void> => {
    await Promise.allSettled([tees.stdout.finish(), tees.stderr.finish()]);
    await Promise.all([rm(options.stdoutFile, { force: true }), rm(options.stderrFile, { force: true })]);
  };
  const withdraw = async (): Promise<'withdrawn'> => {
    await removeOutputs();
    return 'withdrawn';
  };
  // Under the boundary the check's sandbox is set up now and waits at its closer's gate; without
  // one there is no gate to hold it, and nothing is started before `gate` opens.
  const ahead = 'boundary' in choice;
  const early = ahead ? undefined : await gate;
  if (early === 'withdrawn') return withdraw();
  const { child, assembled } = spawnContained(
    { executable: options.file, args: options.args, cwd: options.cwd, environment: options.environment, attemptTag: options.attemptTag, stdin: 'ignore' },
    choice,
  );
  child.catch(() => undefined);
  // Ends the check's tree should the supervisor die first; released once the tree is ended (below, in `finally`).
  const warden = wardenFor(choice.containment.mechanism, child.pid, options.attemptTag);
  const watched = watchCheck(child, tees);
  const go = early ?? (await gate);
  if (go === 'withdrawn') {
    // The closer never read its `go`: only the sandbox and the waiting closer are killed.
    await stopAndKill(options, choice, child, watched);
    return withdraw();
  }
  // A sandbox that ended before its closer reached the gate started nothing: the check could not be started.
  const assembly = await assembled;
  if (!assembly.assembled) {
    await stopAndKill(options, choice, child, watched);
    await removeOutputs();
    throw new Error(`Could not start the check ${options.file}: its sandbox could not be assembled (${assembly.said})`);
  }
  const startedAt = new Date();
  const started = performance.now();
  // Under the boundary it goes now, with nothing to read.
  if (ahead) openGate(child);
  const deadline = startDeadline(go.deadlineMs);
  const cancel = cancellation(options.signal);
  // A write that fails stops the check at once: nothing waits for a drain the broken file never sends.
  const notKept = Promise.race([tees.stdout.failed, tees.stderr.failed]).then(() => 'not-kept' as const);
  // So does output past the keep bound: a check that floods its output is stopped, not kept on.
  const bound = Promise.race([tees.stdout.reachedBound, tees.stderr.reachedBound]).then(() => 'bound' as const);
  try {
    const first = await Promise.race([watched.normalEnd, deadline.expired, watched.spawnFailure, cancel.requested, notKept, bound]);
    if (first === 'spawn-failed') {
      await removeOutputs();
      throw new Error(`Could not start the check ${options.file}`, { cause: watched.spawnError() });
    }
    const survivors = first === 'normal-end' ? await sweepAfterEnd(options, choice, child.pid) : await stopAndKill(options, choice, child, watched);
    const [stdout, stderr] = await Promise.all([tees.stdout.end(), tees.stderr.end()]);
    const unkept = (kept: TeeEnding['kept'][]) => kept.filter((each) => each instanceof EvidenceWriteError).map(({ path, message }) => ({ path, message }));
    const durable = Promise.all([stdout.durable, stderr.durable]).then(unkept);
    // A write that failed is known now, whenever the fsync ends; one that failed on the fsync, only then.
    const writtenSoFar = [tees.stdout.failedWith, tees.stderr.failedWith].filter((failure) => failure !== undefined);
    return {
      notKept: unkept(writtenSoFar),
      // Read from the tees, not from what won the race: a pipe's last chunk can pass the bound just before its end.
      bound: [options.stdoutFile, options.stderrFile].filter((_, index) => [tees.stdout, tees.stderr][index]!.boundReached),
      durable,
      exit: watched.exit(),
      timedOut: first === 'deadline',
      cancelled: first === 'cancelled',
      containment: choice.containment,
      survivors,
      startedAt: startedAt.toISOString(),
      durationMs: performance.now() - started,
      stdout: stdout.digest,
      stderr: stderr.digest,
    };
  } finally {
    deadline.cancel();
    cancel.dispose();
    warden?.release();
  }
}

type CheckProcess = ReturnType<typeof spawnContained>['child'];
type CheckWatch = ReturnType<typeof watchCheck>;

/** The boundary's containment when the check runs inside it, else the supervisor's own choice (probed once, cached). */
async function containmentFor(options: SuperviseCheckOptions): Promise<ContainmentChoice> {
  if (options.boundary === undefined) return chooseContainment(options.containment);
  return { containment: { ...boundaryContainment(), mechanism: 'bwrap' }, boundary: options.boundary };
}

/**
 * Follows the check and its pipes. As for an adapter (R7.4), the normal end is the exit AND both
 * pipes' end: a descendant holding a pipe keeps the check running until its deadline.
 */
function watchCheck(child: CheckProcess, tees: { stdout: StreamTee; stderr: StreamTee }) {
  let listening = true;
  let exit: SupervisedCheck['exit'] = 'not-observed';
  let spawnError: unknown;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      resolve();
    });
  });
  const spawnFailure = new Promise<'spawn-failed'>((resolve) => {
    child.once('error', (error) => {
      if (child.pid !== undefined) return;
      spawnError = error;
      resolve('spawn-failed');
    });
  });
  const follow = (stream: Readable | null, tee: StreamTee): Promise<void> =>
    stream === null
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          stream.on('data', (chunk: Buffer) => {
            if (!listening) return;
            if (tee.write(chunk).behind) {
              stream.pause();
              tee.onDrain(() => stream.resume());
            }
          });
          stream.once('end', () => resolve());
          stream.once('error', () => resolve());
          stream.once('close', () => resolve());
        });
  const normalEnd = Promise.all([exited, follow(child.stdout, tees.stdout), follow(child.stderr, tees.stderr)]).then(() => 'normal-end' as const);
  return {
    normalEnd,
    spawnFailure,
    spawnError: () => spawnError,
    exit: () => exit,
    stopListening: () => {
      listening = false;
    },
  };
}

/** R7.3: the check and its pipes are done; anything of it still running was left behind. */
function sweepAfterEnd(options: SuperviseCheckOptions, choice: ContainmentChoice, pid: number | undefined): Promise<Survivor[]> {
  return sweepLeftovers(options.attemptTag, choice.containment.mechanism === 'process-group' ? pid : undefined);
}

/** R7.2, in this order: stop waiting, keep what was read, kill the tree, probe for survivors (also when an output file failed). */
function stopAndKill(options: SuperviseCheckOptions, choice: ContainmentChoice, child: CheckProcess, watched: CheckWatch): Promise<Survivor[]> {
  watched.stopListening();
  const killed = child.pid === undefined ? [] : killTree(choice.containment.mechanism, child.pid, options.attemptTag);
  // Destroyed, never awaited: a survivor could hold these pipes open for ever.
  child.stdout?.destroy();
  child.stderr?.destroy();
  return probeSurvivors(options.attemptTag, choice.containment.mechanism === 'process-group' ? child.pid : undefined, killed);
}

/** The operator's interrupt as a promise to race; `dispose` removes the listener once the race is over. */
function cancellation(signal: AbortSignal | undefined): { requested: Promise<'cancelled'>; dispose(): void } {
  let onAbort = (): void => undefined;
  const requested = new Promise<'cancelled'>((resolve) => {
    onAbort = () => resolve('cancelled');
  });
  if (signal?.aborted === true) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });
  return { requested, dispose: () => signal?.removeEventListener('abort', onAbort) };
}
