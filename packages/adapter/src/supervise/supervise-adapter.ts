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
import { StreamTee } from './stream-tee.js';
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
    options.boundary === undefined ? await chooseContainment(options.containment) : { containment: { ...boundaryContainment(), mechanism: 'bwrap' }, boundary: options.boundary };
  const stdoutTee = await StreamTee.open(options.streamFile);
  const stderrTee = await StreamTee.open(options.stderrFile);
  const reader = new EventStreamReader({
    ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }),
    ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
  });

  const startedAt = new Date();
  const started = performance.now();
  const child = spawnAdapter(options, choice);
  // execa's own promise settles once the child is gone; it must never become an unhandled rejection.
  child.catch(() => undefined);
  // R7.2: the deadline runs from the spawn.
  const deadline = startDeadline(options.deadlineMs);
  const watched = watchChild(child, reader, stdoutTee, stderrTee);
  writePrompt(child, options.prompt);

  const first = await Promise.race([watched.normalEnd, deadline.expired, watched.spawnFailure, watched.callbackFailure]);
  if (first === 'spawn-failed') {
    deadline.cancel();
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
    deadline.cancel();
    await stopAndKill();
    await Promise.allSettled([stdoutTee.finish(), stderrTee.finish()]);
    throw new Error('The onEvent callback threw; the adapter process tree was killed', { cause: watched.callbackError() });
  }

  const timedOut = first === 'deadline';
  let reading: StreamReading;
  let survivors: SupervisedAttempt['survivors'];
  if (timedOut) {
    ({ reading, survivors } = await stopAndKill());
  } else {
    deadline.cancel();
    reading = reader.reading();
    // R7.3: the child and its pipes are done; anything of the attempt still running was left behind.
    survivors = await sweepLeftovers(options.attemptTag, processGroup);
  }
  const [stdout, stderr] = await Promise.all([stdoutTee.finish(), stderrTee.finish()]);
  const endedAt = new Date();
  const attempt: SupervisedAttempt = {
    ...reading,
    timedOut,
    exit: watched.exit(),
    containment: choice.containment,
    survivors,
    startedAt: startedAt.toISOString(),
    endedAt: endedAt.toISOString(),
    durationMs: performance.now() - started,
    stdout,
    stderr,
  };
  return { kind: 'supervised', attempt };
}

