import { EventStreamReader } from '../stream/event-stream-reader.js';
import type { StreamReading } from '../stream/event-stream-reader.js';
import type { SupervisedAttempt } from './attempt.js';
import { checkExecutable } from './check-executable.js';
import { checkWorkspace } from './check-workspace.js';
import { startDeadline } from './deadline.js';
import { killTree } from './kill-tree.js';
import type { SuperviseAnswer, SuperviseOptions } from './options.js';
import { boundaryContainment } from './bwrap-boundary.js';
import { chooseContainment, type ContainmentChoice } from './probe-containment.js';
import { spawnAdapter } from './spawn-adapter.js';
import { EvidenceWriteError, StreamTee, type TeeEnding } from './stream-tee.js';
import { probeSurvivors, sweepLeftovers } from './survivors.js';
import { watchChild, writePrompt } from './watch-child.js';

/**
 * Runs one adapter process under supervision (R7): refuses an unusable workspace before spawn,
 * feeds the prompt on stdin, reads the event stream as it arrives, enforces the deadline over the
 * whole process tree, and reports what it observed. It never reads the exit status as an outcome
 * (R7.6): that is the classifier's job, from the stream.
 */
export async function superviseAdapter(options: SuperviseOptions): Promise<SuperviseAnswer> {
  const refusal = await checkWorkspace(options.workspace);
  if (refusal !== undefined) return refusal;
  await checkExecutable(options.executable);
  const choice: ContainmentChoice =
    options.boundary === undefined
      ? await chooseContainment(options.containment)
      : { containment: { ...boundaryContainment(), mechanism: 'bwrap' }, boundary: options.boundary };
  const stdoutTee = await StreamTee.open(options.streamFile);
  const stderrTee = await StreamTee.open(options.stderrFile);
  const reader = new EventStreamReader({
    ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }),
    ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
  });

  const startedAt = new Date();
  const started = performance.now();
  // Interrupted before the spawn: nothing is started, and the attempt reads as cancelled.
  if (options.signal?.aborted === true) {
    const [stdout, stderr] = await Promise.all([stdoutTee.finish(), stderrTee.finish()]);
    const attempt: SupervisedAttempt = {
      ...reader.reading(),
      timedOut: false,
      stoppedBy: 'operator-cancel',
      exit: 'not-observed',
      containment: choice.containment,
      survivors: [],
      startedAt: startedAt.toISOString(),
      endedAt: new Date().toISOString(),
      durationMs: performance.now() - started,
      stdout: stdout.digest,
      stderr: stderr.digest,
    };
    return { kind: 'supervised', attempt };
  }
  const child = spawnAdapter(options, choice);
  // execa's own promise settles once the child is gone; it must never become an unhandled rejection.
  child.catch(() => undefined);
  // R7.2: the deadline runs from the spawn.
  const deadline = startDeadline(options.deadlineMs);
  // Cancellation is an AbortSignal raced beside the deadline, never a second kill path (docs/architecture.md, convention 10).
  const cancel = cancellation(options.signal);
  const watched = watchChild(child, reader, stdoutTee, stderrTee);
  writePrompt(child, options.prompt);

  // A file of evidence that cannot be written stops the attempt at once: the pipe it was paused
  // for would otherwise wait for the deadline, and what ran on would go unkept (R8.4).
  const evidenceFailure = Promise.race([stdoutTee.failed, stderrTee.failed]).then(() => 'evidence-failed' as const);
  const first = await Promise.race([watched.normalEnd, deadline.expired, cancel.requested, watched.spawnFailure, watched.callbackFailure, evidenceFailure]);
  deadline.cancel();
  cancel.dispose();
  if (first === 'spawn-failed') {
    await Promise.allSettled([stdoutTee.finish(), stderrTee.finish()]);
    throw new Error(`Could not start the adapter ${options.executable}`, { cause: watched.spawnError() });
  }

  const processGroup = choice.containment.mechanism === 'process-group' ? child.pid : undefined;
  /** R7.2, in this order: stop waiting, keep what was read, kill the tree, probe for survivors. */
  const stopAndKill = async (): Promise<{ reading: StreamReading; survivors: SupervisedAttempt['survivors'] }> => {
    watched.stopListening();
    const readSoFar = reader.reading();
    const killed = child.pid === undefined ? [] : killTree(choice.containment.mechanism, child.pid, options.attemptTag);
    // Destroyed, never awaited: a survivor could hold these pipes open for ever.
    child.stdin?.destroy();
    child.stdout?.destroy();
    child.stderr?.destroy();
    return { reading: readSoFar, survivors: await probeSurvivors(options.attemptTag, processGroup, killed) };
  };

  if (first === 'callback-failed') {
    await stopAndKill();
    await Promise.allSettled([stdoutTee.finish(), stderrTee.finish()]);
    throw new Error('The onEvent callback threw; the adapter process tree was killed', { cause: watched.callbackError() });
  }

  const stoppedBy = first === 'deadline' ? 'deadline' : first === 'cancelled' ? 'operator-cancel' : first === 'evidence-failed' ? 'evidence-not-kept' : 'none';
  let reading: StreamReading;
  let survivors: SupervisedAttempt['survivors'];
  let endings: Promise<[TeeEnding, TeeEnding]>;
  if (stoppedBy !== 'none') {
    ({ reading, survivors } = await stopAndKill());
    endings = Promise.all([stdoutTee.finish(), stderrTee.finish()]);
  } else {
    reading = reader.reading();
    // Both pipes are at their end, so every byte is in the tees: their last writes and fsyncs run
    // on the thread pool while /proc is swept, rather than after it. One turn of the event loop
    // lets them be handed over before the sweep, which is synchronous, holds the loop.
    endings = Promise.all([stdoutTee.finish(), stderrTee.finish()]);
    await new Promise((resolve) => setImmediate(resolve));
    // R7.3: the child and its pipes are done; anything of the attempt still running was left behind.
    survivors = await sweepLeftovers(options.attemptTag, processGroup);
  }
  const [stdout, stderr] = await endings;
  const endedAt = new Date();
  const attempt: SupervisedAttempt = {
    ...reading,
    timedOut: stoppedBy === 'deadline',
    stoppedBy,
    exit: watched.exit(),
    containment: choice.containment,
    survivors,
    startedAt: startedAt.toISOString(),
    endedAt: endedAt.toISOString(),
    durationMs: performance.now() - started,
    stdout: stdout.digest,
    stderr: stderr.digest,
  };
  const notKept = [stdout.kept, stderr.kept].filter((kept) => kept instanceof EvidenceWriteError).map(({ path, message }) => ({ path, message }));
  if (notKept.length > 0) return { kind: 'evidence-not-kept', attempt, notKept, stopped: stoppedBy === 'evidence-not-kept' };
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
