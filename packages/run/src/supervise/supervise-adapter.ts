import { rm } from 'node:fs/promises';
import { EventStreamReader } from '@statecraft/adapter';
import type { StreamReading } from '@statecraft/adapter';
import type { Containment, ContainmentMechanism, Stop, SupervisedAttempt } from '@statecraft/adapter';
import { checkExecutable } from './check-executable.js';
import { checkWorkspace } from './check-workspace.js';
import { startDeadline } from './deadline.js';
import { readKeepBound } from './keep-bound.js';
import { killTree } from './kill-tree.js';
import type { SuperviseAnswer, SuperviseOptions } from './options.js';
import { boundaryContainment } from '@statecraft/environment';
import { chooseContainment, type ContainmentChoice } from '@statecraft/environment';
import { openGate, spawnAdapter, type AdapterProcess } from './spawn-adapter.js';
import { EvidenceWriteError, StreamTee, type TeeEnding } from './stream-tee.js';
import { probeSurvivors, sweepLeftovers } from './survivors.js';
import { wardenFor, type SupervisorDeathWarden } from './supervisor-death-warden.js';
import { watchChild, writePrompt } from './watch-child.js';

/**
 * Runs one adapter process under supervision (R7): refuses an unusable workspace before spawn,
 * feeds the prompt on stdin, reads the event stream as it arrives, enforces the deadline over the
 * whole process tree, and reports what it observed. It never reads the exit status as an outcome
 * (R7.6): that is the classifier's job, from the stream.
 */
export async function superviseAdapter(options: SuperviseOptions): Promise<SuperviseAnswer> {
  // The checks before the spawn are independent reads, asked together and answered in the order
  // they were always asked (a refused workspace first, then an unusable executable); the files
  // are opened only once they pass, so a refused workspace leaves none behind.
  const [workspace, executable, containment] = await Promise.allSettled([
    checkWorkspace(options.workspace),
    checkExecutable(options.executable),
    containmentFor(options),
  ]);
  const refusal = settledValue(workspace);
  if (refusal !== undefined) return refusal;
  settledValue(executable);
  const choice = settledValue(containment);
  // Under the boundary the adapter's sandbox is set up now and waits at its closer's gate; without
  // one there is no gate to hold it, and nothing is started before `options.gate` opens.
  const ahead = 'boundary' in choice;
  if (!ahead && !(await (options.gate ?? true))) return { kind: 'withdrawn' };
  const [stdoutTee, stderrTee] = await StreamTee.openPair(options.keepBoundBytes ?? readKeepBound(), options.streamFile, options.stderrFile);
  const reader = new EventStreamReader({
    ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }),
    ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
  });
  const notStarted = async (): Promise<SuperviseAnswer> => {
    // Interrupted before the start: nothing is started, and the attempt reads as cancelled.
    const clock: AttemptClock = { startedAt: new Date(), started: performance.now() };
    const [stdout, stderr] = await Promise.all([stdoutTee.finish(), stderrTee.finish()]);
    const ending: AttemptEnding = { stoppedBy: 'operator-cancel', exit: 'not-observed', survivors: [] };
    return { kind: 'supervised', attempt: attemptOf(reader.reading(), ending, choice.containment, clock, stdout, stderr) };
  };
  if (!ahead && options.signal?.aborted === true) return notStarted();
  const { child, assembled } = spawnAdapter(options, choice);
  if (ahead) options.onAssembly?.(assembled);
  // execa's own promise settles once the child is gone; it must never become an unhandled rejection.
  child.catch(() => undefined);
  const watched = watchChild(child, reader, stdoutTee, stderrTee);
  const running: RunningAttempt = {
    child,
    watched,
    reader,
    mechanism: choice.containment.mechanism,
    attemptTag: options.attemptTag,
    processGroup: choice.containment.mechanism === 'process-group' ? child.pid : undefined,
    warden: wardenFor(choice.containment.mechanism, child.pid, options.attemptTag),
    onTreeGone: options.onTreeGone,
  };
  if (ahead) {
    const go = await (options.gate ?? true);
    if (!go || options.signal?.aborted === true) {
      // The closer never read its `go`: only the sandbox and the waiting closer are killed.
      await stopAndKill(running);
      // Interrupted with the gate open: the attempt reads as cancelled, as before a spawn (it finishes the files).
      if (go) return notStarted();
      await Promise.allSettled([stdoutTee.finish(), stderrTee.finish()]);
      const files = [options.streamFile, options.stderrFile].filter((file) => file !== undefined);
      await Promise.all(files.map((file) => rm(file, { force: true })));
      return { kind: 'withdrawn' };
    }
  }
  const clock: AttemptClock = { startedAt: new Date(), started: performance.now() };
  // R7.2: the deadline runs from the adapter's start.
  const deadline = startDeadline(options.deadlineMs);
  // Cancellation is an AbortSignal raced beside the deadline, never a second kill path (docs/architecture.md, convention 10).
  const cancel = cancellation(options.signal);
  if (ahead) openGate(child, options.prompt);
  else writePrompt(child, options.prompt);

  // A file of evidence that cannot be written stops the attempt at once: the pipe it was paused
  // for would otherwise wait for the deadline, and what ran on would go unkept (R8.4).
  const evidenceFailure = Promise.race([stdoutTee.failed, stderrTee.failed]).then(() => 'evidence-failed' as const);
  // So does one that reaches the keep bound: what the adapter writes past it would be neither kept nor read.
  const evidenceBound = Promise.race([stdoutTee.reachedBound, stderrTee.reachedBound]).then(() => 'evidence-bound' as const);
  const first = await Promise.race([
    watched.normalEnd,
    deadline.expired,
    cancel.requested,
    watched.spawnFailure,
    watched.callbackFailure,
    evidenceFailure,
    evidenceBound,
  ]);
  deadline.cancel();
  cancel.dispose();
  if (first === 'spawn-failed') {
    await Promise.allSettled([stdoutTee.finish(), stderrTee.finish()]);
    throw new Error(`Could not start the adapter ${options.executable}`, { cause: watched.spawnError() });
  }

  if (first === 'callback-failed') {
    await stopAndKill(running);
    await Promise.allSettled([stdoutTee.finish(), stderrTee.finish()]);
    throw new Error('The onEvent callback threw; the adapter process tree was killed', { cause: watched.callbackError() });
  }

  // A pipe's last chunk can pass the bound just before the end wins the race: bytes were left untaken all the same.
  const cut = stdoutTee.boundReached || stderrTee.boundReached;
  const stoppedBy = cut && first === 'normal-end' ? 'evidence-bound' : stopOf(first);
  const finishTees = (): Promise<[TeeEnding, TeeEnding]> => Promise.all([stdoutTee.finish(), stderrTee.finish()]);
  const { reading, survivors, endings } =
    stoppedBy === 'none' ? await endedOnItsOwn(running, finishTees) : { ...(await stopAndKill(running)), endings: finishTees() };
  const [stdout, stderr] = await endings;
  const attempt = attemptOf(reading, { stoppedBy, exit: watched.exit(), survivors }, choice.containment, clock, stdout, stderr);
  return answerOf(attempt, stdout, stderr);
}

/** A settled step's value, or its failure thrown as the step itself would have thrown it. */
function settledValue<T>(settled: PromiseSettledResult<T>): T {
  if (settled.status === 'rejected') throw settled.reason;
  return settled.value;
}

/** With a boundary given (R12), bwrap's own PID namespace contains the tree; without, the probed mechanism. */

async function containmentFor(options: SuperviseOptions): Promise<ContainmentChoice> {
  if (options.boundary === undefined) return chooseContainment(options.containment);
  return { containment: { ...boundaryContainment(), mechanism: 'bwrap' }, boundary: options.boundary };
}

/** When the attempt began: a wall-clock time for the record, a monotonic start for its duration. */
interface AttemptClock {
  startedAt: Date;
  started: number;
}

/** How the attempt ended, as the supervisor saw it. */
interface AttemptEnding {
  stoppedBy: Stop;
  exit: SupervisedAttempt['exit'];
  survivors: SupervisedAttempt['survivors'];
}

/** A spawned child and what the supervisor needs to stop it or to see it ended. */
interface RunningAttempt {
  child: AdapterProcess;
  watched: ReturnType<typeof watchChild>;
  reader: EventStreamReader;
  mechanism: ContainmentMechanism;
  attemptTag: string;
  /** The group to kill and probe, under the process-group mechanism only. */
  processGroup: number | undefined;
  /** Ends the tree should the supervisor die first (supervisor-death-warden.ts); released once the tree is ended. */
  warden: SupervisorDeathWarden | undefined;
  /** SuperviseOptions' `onTreeGone`. */
  onTreeGone: ((reading: StreamReading) => void) | undefined;
}

/** What stopped the wait, as the attempt records it. */
function stopOf(first: 'normal-end' | 'deadline' | 'cancelled' | 'evidence-failed' | 'evidence-bound'): Stop {
  if (first === 'deadline') return 'deadline';
  if (first === 'cancelled') return 'operator-cancel';
  if (first === 'evidence-failed') return 'evidence-not-kept';
  if (first === 'evidence-bound') return 'evidence-bound';
  return 'none';
}

/** What the supervisor holds once the adapter has stopped: the reading, the leftovers, the evidence files' endings. */
interface Stopped {
  reading: StreamReading;
  survivors: SupervisedAttempt['survivors'];
  endings: Promise<[TeeEnding, TeeEnding]>;
}

/** R7.2, in this order: stop waiting, keep what was read, kill the tree, probe for survivors. */
async function stopAndKill(running: RunningAttempt): Promise<Omit<Stopped, 'endings'>> {
  const { child } = running;
  running.watched.stopListening();
  const readSoFar = running.reader.reading();
  const killed = child.pid === undefined ? [] : killTree(running.mechanism, child.pid, running.attemptTag);
  // Destroyed, never awaited: a survivor could hold these pipes open for ever.
  child.stdin?.destroy();
  child.stdout?.destroy();
  child.stderr?.destroy();
  const survivors = await probeSurvivors(running.attemptTag, running.processGroup, killed);
  running.warden?.release();
  return { reading: readSoFar, survivors };
}

/** The normal end: what was read, then (R7.3) anything of the attempt still running, which was left behind. */
async function endedOnItsOwn(running: RunningAttempt, finishTees: () => Promise<[TeeEnding, TeeEnding]>): Promise<Stopped> {
  const reading = running.reader.reading();
  // Both pipes are at their end, so every byte is in the tees: their last writes and fsyncs run on
  // the thread pool while /proc is swept, rather than after it. Under bwrap the tree is gone once
  // bwrap has ended (SuperviseOptions' `onTreeGone`), so the caller's reads start now too, and the
  // sweep checks it while they run. One turn of the event loop lets both be handed over (the
  // caller's first spawn waits on a settled promise) before the sweep, which is synchronous, holds
  // the loop.
  const endings = finishTees();
  const namespaceEnded = running.mechanism === 'bwrap';
  if (namespaceEnded) tellTreeGone(running, reading);
  await new Promise((resolve) => setImmediate(resolve));
  const survivors = await sweepLeftovers(running.attemptTag, running.processGroup);
  running.warden?.release();
  if (!namespaceEnded) tellTreeGone(running, reading);
  return { reading, survivors, endings };
}

function tellTreeGone(running: RunningAttempt, reading: StreamReading): void {
  try {
    running.onTreeGone?.(reading);
  } catch {
    // What the caller starts here only saves it time later; its failure is the caller's, never the attempt's.
  }
}

/** The attempt as observed; it ends now, once both evidence files are finished. */
function attemptOf(
  reading: StreamReading,
  ending: AttemptEnding,
  containment: Containment,
  clock: AttemptClock,
  stdout: TeeEnding,
  stderr: TeeEnding,
): SupervisedAttempt {
  return {
    ...reading,
    timedOut: ending.stoppedBy === 'deadline',
    stoppedBy: ending.stoppedBy,
    exit: ending.exit,
    containment,
    survivors: ending.survivors,
    startedAt: clock.startedAt.toISOString(),
    endedAt: new Date().toISOString(),
    durationMs: performance.now() - clock.started,
    stdout: stdout.digest,
    stderr: stderr.digest,
  };
}

/** Supervised, unless a file of evidence could not be written: then the attempt with the files not kept (R8.4). */
function answerOf(attempt: SupervisedAttempt, stdout: TeeEnding, stderr: TeeEnding): SuperviseAnswer {
  const notKept = [stdout.kept, stderr.kept].filter((kept) => kept instanceof EvidenceWriteError).map(({ path, message }) => ({ path, message }));
  if (notKept.length > 0) return { kind: 'evidence-not-kept', attempt, notKept, stopped: attempt.stoppedBy === 'evidence-not-kept' };
  return { kind: 'supervised', attempt };
}

/** The operator's interrupt as a promise to race; `dispose` removes the listener once the race is over. */
function cancellation(signal: AbortSignal | undefined): { requested: Promise<'cancelled'>; dispose(): void } {
  if (signal === undefined) return { requested: new Promise<'cancelled'>(() => undefined), dispose: () => undefined };
  let onAbort = (): void => undefined;
  const requested = new Promise<'cancelled'>((resolve) => {
    onAbort = () => resolve('cancelled');
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return { requested, dispose: () => signal.removeEventListener('abort', onAbort) };
}
