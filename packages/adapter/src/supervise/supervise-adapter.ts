import type { Readable } from 'node:stream';
import { EventStreamReader } from '../stream/event-stream-reader.js';
import type { StreamReading } from '../stream/event-stream-reader.js';
import type { SupervisedAttempt } from './attempt.js';
import { checkExecutable } from './check-executable.js';
import { checkWorkspace } from './check-workspace.js';
import { startDeadline } from './deadline.js';
import { killTree } from './kill-tree.js';
import type { SuperviseAnswer, SuperviseOptions } from './options.js';
import { chooseContainment } from './probe-containment.js';
import { spawnAdapter } from './spawn-adapter.js';
import type { AdapterProcess } from './spawn-adapter.js';
import { StreamTee } from './stream-tee.js';
import { probeSurvivors, sweepLeftovers } from './survivors.js';

type Exit = SupervisedAttempt['exit'];

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
  const choice = await chooseContainment(options.containment);
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

  const first = await Promise.race([watched.normalEnd, deadline.expired, watched.spawnFailure]);
  if (first === 'spawn-failed') {
    deadline.cancel();
    await Promise.allSettled([stdoutTee.finish(), stderrTee.finish()]);
    throw new Error(`Could not start the adapter ${options.executable}`, { cause: watched.spawnError() });
  }

  const timedOut = first === 'deadline';
  let reading: StreamReading;
  let survivors: SupervisedAttempt['survivors'];
  const processGroup = choice.containment.mechanism === 'process-group' ? child.pid : undefined;
  if (timedOut) {
    // R7.2, in this order: stop waiting, keep what was read, kill the tree, probe for survivors.
    watched.stopListening();
    reading = reader.reading();
    const killed = child.pid === undefined ? [] : killTree(choice.containment.mechanism, child.pid, options.attemptTag);
    // Destroyed, never awaited: a survivor could hold these pipes open for ever.
    child.stdin?.destroy();
    child.stdout?.destroy();
    child.stderr?.destroy();
    survivors = await probeSurvivors(options.attemptTag, processGroup, killed);
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

/**
 * R1.3, R7.4: the prompt is written and stdin closed without anyone awaiting it, so a child that
 * never reads its prompt cannot delay enforcement; a child that exits first causes EPIPE, ignored.
 */
function writePrompt(child: AdapterProcess, prompt: string): void {
  const stdin = child.stdin;
  if (stdin === null) return;
  stdin.on('error', () => undefined);
  stdin.end(prompt);
}

/**
 * Follows the child and its pipes. The normal end (R7.4) is the child's exit AND the end of both
 * pipes: the child exiting does not release the supervisor while a descendant holds a pipe, and
 * end of file does not release it while the child lives.
 */
function watchChild(child: AdapterProcess, reader: EventStreamReader, stdoutTee: StreamTee, stderrTee: StreamTee) {
  let listening = true;
  let exit: Exit = 'not-observed';
  let spawnError: unknown;

  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      resolve();
    });
  });
  const spawnFailure = new Promise<'spawn-failed'>((resolve) => {
    child.once('error', (error) => {
      // Only a failure to start matters here; after a successful spawn execa reports through its promise.
      if (child.pid !== undefined) return;
      spawnError = error;
      resolve('spawn-failed');
    });
  });
  const stdoutEnded = follow(child.stdout, stdoutTee, {
    chunk: (chunk) => listening && reader.push(chunk),
    end: () => listening && reader.end(),
    fail: (error) => listening && reader.fail(error),
  });
  const stderrEnded = follow(child.stderr, stderrTee, {});

  return {
    normalEnd: Promise.all([exited, stdoutEnded, stderrEnded]).then(() => 'normal-end' as const),
    spawnFailure,
    spawnError: () => spawnError,
    exit: () => exit,
    stopListening: () => {
      listening = false;
    },
  };

  function follow(
    stream: Readable | null,
    tee: StreamTee,
    on: { chunk?: (chunk: Buffer) => unknown; end?: () => unknown; fail?: (error: Error) => unknown },
  ): Promise<void> {
    if (stream === null) return Promise.resolve();
    return new Promise<void>((resolve) => {
      stream.on('data', (chunk: Buffer) => {
        if (!listening) return;
        if (!tee.write(chunk)) {
          // Backpressure: the file is behind; the pipe waits (the deadline does not).
          stream.pause();
          tee.onDrain(() => stream.resume());
        }
        on.chunk?.(chunk);
      });
      let settled = false;
      const settle = (then?: () => unknown) => {
        if (settled) return;
        settled = true;
        then?.();
        resolve();
      };
      stream.once('end', () => settle(on.end));
      stream.once('error', (error) => settle(() => on.fail?.(error)));
      stream.once('close', () => settle(() => on.fail?.(new Error('the pipe closed before its end'))));
    });
  }
}
