import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { Containment, ContainmentMechanism, Survivor } from './attempt.js';
import type { StreamDigestSchema } from './attempt.js';
import { startDeadline } from './deadline.js';
import { killTree } from './kill-tree.js';
import { chooseContainment, type ContainmentChoice } from './probe-containment.js';
import { spawnContained } from './spawn-adapter.js';
import { StreamTee } from './stream-tee.js';
import { probeSurvivors, sweepLeftovers } from './survivors.js';

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
  /** This check's deadline, from its spawn (R7.2). */
  deadlineMs: number;
  /** Inherited by every descendant, so escaped ones are found (R7.3). */
  attemptTag: string;
  stdoutFile: string;
  stderrFile: string;
  containment?: 'auto' | Exclude<ContainmentMechanism, 'bwrap'>;
  /** The operator's interrupt: the tree is killed as at the deadline, and the answer says so. */
  signal?: AbortSignal;
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
}

/**
 * Runs one check — a process that speaks no protocol — under the supervision an adapter gets
 * (R13.3): the constructed environment and the attempt tag, the same containment choice (a PID
 * namespace, else its own process group plus the tag sweep), a deadline from the spawn, the whole
 * tree killed at the deadline without waiting on a pipe a survivor could hold, a bounded survivor
 * probe, and stdout/stderr teed to files with their digests. stdin is closed: a check reads no prompt.
 * Throws only when the process could not be started at all (the caller counts the check as not run).
 */
export async function superviseCheck(options: SuperviseCheckOptions): Promise<SupervisedCheck> {
  const choice = await chooseContainment(options.containment);
  const stdoutTee = await StreamTee.open(options.stdoutFile);
  const stderrTee = await StreamTee.open(options.stderrFile);
  const startedAt = new Date();
  const started = performance.now();
  const child = spawnCheck(options, choice);
  child.catch(() => undefined);
  const deadline = startDeadline(options.deadlineMs);

  let listening = true;
  let exit: SupervisedCheck['exit'] = 'not-observed';
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      resolve();
    });
  });
  let spawnError: unknown;
  const spawnFailure = new Promise<'spawn-failed'>((resolve) => {
    child.once('error', (error) => {
      if (child.pid !== undefined) return;
      spawnError = error;
      resolve('spawn-failed');
    });
  });
  let cancel: () => void = () => undefined;
  const cancelled = new Promise<'cancelled'>((resolve) => {
    cancel = () => resolve('cancelled');
  });
  if (options.signal?.aborted === true) cancel();
  options.signal?.addEventListener('abort', cancel, { once: true });
  const follow = (stream: Readable | null, tee: StreamTee): Promise<void> =>
    stream === null
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          stream.on('data', (chunk: Buffer) => {
            if (!listening) return;
            if (!tee.write(chunk)) {
              stream.pause();
              tee.onDrain(() => stream.resume());
            }
          });
          stream.once('end', () => resolve());
          stream.once('error', () => resolve());
          stream.once('close', () => resolve());
        });
  // As for an adapter (R7.4): the normal end is the exit AND both pipes' end.
  const normalEnd = Promise.all([exited, follow(child.stdout, stdoutTee), follow(child.stderr, stderrTee)]).then(() => 'normal-end' as const);

  try {
    const first = await Promise.race([normalEnd, deadline.expired, spawnFailure, cancelled]);
    if (first === 'spawn-failed') {
      await Promise.allSettled([stdoutTee.finish(), stderrTee.finish()]);
      throw new Error(`Could not start the check ${options.file}`, { cause: spawnError });
    }
    const processGroup = choice.containment.mechanism === 'process-group' ? child.pid : undefined;
    let survivors: Survivor[];
    if (first === 'normal-end') {
      survivors = await sweepLeftovers(options.attemptTag, processGroup);
    } else {
      // R7.2, in this order: stop waiting, keep what was read, kill the tree, probe for survivors.
      listening = false;
      const killed = child.pid === undefined ? [] : killTree(choice.containment.mechanism, child.pid, options.attemptTag);
      child.stdout?.destroy();
      child.stderr?.destroy();
      survivors = await probeSurvivors(options.attemptTag, processGroup, killed);
    }
    const [stdout, stderr] = await Promise.all([stdoutTee.finish(), stderrTee.finish()]);
    return {
      exit,
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
    options.signal?.removeEventListener('abort', cancel);
  }
}

/** Spawns the check as an adapter is spawned (spawn-adapter.ts), with stdin closed and no shell of ours. */
function spawnCheck(options: SuperviseCheckOptions, choice: ContainmentChoice) {
  return spawnContained(
    { executable: options.file, args: options.args, cwd: options.cwd, environment: options.environment, attemptTag: options.attemptTag, stdin: 'ignore' },
    choice,
  );
}
