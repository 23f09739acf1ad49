import type { Readable } from 'node:stream';
import type { EventStreamReader } from '@statecraft/adapter';
import type { SupervisedAttempt } from '@statecraft/adapter';
import type { AdapterProcess } from './spawn-adapter.js';
import type { StreamTee } from './stream-tee.js';

type Exit = SupervisedAttempt['exit'];

/**
 * R1.3, R7.4: the prompt is written and stdin closed without anyone awaiting it, so a child that
 * never reads its prompt cannot delay enforcement; a child that exits first causes EPIPE, ignored.
 */
export function writePrompt(child: AdapterProcess, prompt: string): void {
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
export function watchChild(child: AdapterProcess, reader: EventStreamReader, stdoutTee: StreamTee, stderrTee: StreamTee) {
  let listening = true;
  const isListening = () => listening;
  const callback = guardCallback(() => {
    listening = false;
  });
  const exit = observeExit(child);
  const start = observeSpawnFailure(child);
  const stdoutEnded = followPipe(child.stdout, stdoutTee, isListening, {
    chunk: (chunk) => listening && callback.guarded(() => reader.push(chunk)),
    end: () => listening && callback.guarded(() => reader.end()),
    fail: (error) => listening && reader.fail(error),
  });
  const stderrEnded = followPipe(child.stderr, stderrTee, isListening, {});

  return {
    normalEnd: Promise.all([exit.exited, stdoutEnded, stderrEnded]).then(() => 'normal-end' as const),
    spawnFailure: start.spawnFailure,
    spawnError: start.spawnError,
    callbackFailure: callback.failure,
    callbackError: callback.error,
    exit: exit.exit,
    stopListening: () => {
      listening = false;
    },
  };
}

/**
 * The caller's onEvent runs inside the reader; if it throws, that is the caller's failure, not the
 * stream's: the watch stops listening and `failure` settles, for the supervisor to race.
 */
function guardCallback(stopListening: () => void) {
  let error: unknown;
  let report: (value: 'callback-failed') => void = () => undefined;
  const failure = new Promise<'callback-failed'>((resolve) => {
    report = resolve;
  });
  const guarded = (step: () => unknown) => {
    try {
      step();
    } catch (thrown) {
      stopListening();
      error = thrown;
      report('callback-failed');
    }
  };
  return { guarded, failure, error: () => error };
}

/** The child's exit status once seen; `not-observed` until then. */
function observeExit(child: AdapterProcess): { exited: Promise<void>; exit: () => Exit } {
  let exit: Exit = 'not-observed';
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      resolve();
    });
  });
  return { exited, exit: () => exit };
}

/** Settles only if the child could not be started at all, keeping the error as the cause to report. */
function observeSpawnFailure(child: AdapterProcess): { spawnFailure: Promise<'spawn-failed'>; spawnError: () => unknown } {
  let spawnError: unknown;
  const spawnFailure = new Promise<'spawn-failed'>((resolve) => {
    child.once('error', (error) => {
      // Only a failure to start matters here; after a successful spawn execa reports through its promise.
      if (child.pid !== undefined) return;
      spawnError = error;
      resolve('spawn-failed');
    });
  });
  return { spawnFailure, spawnError: () => spawnError };
}

/**
 * Copies one pipe into its evidence file while the watch listens, and resolves once the pipe has
 * ended, failed or closed — whichever comes first, reported once.
 */
function followPipe(
  stream: Readable | null,
  tee: StreamTee,
  isListening: () => boolean,
  on: { chunk?: (chunk: Buffer) => unknown; end?: () => unknown; fail?: (error: Error) => unknown },
): Promise<void> {
  if (stream === null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    stream.on('data', (chunk: Buffer) => {
      if (!isListening()) return;
      const { kept, behind } = tee.write(chunk);
      if (behind) {
        // Backpressure: the file is behind; the pipe waits (the deadline does not).
        stream.pause();
        tee.onDrain(() => stream.resume());
      }
      // Only what the file holds is read: past the keep bound the stream is its kept bytes.
      if (kept.length > 0) on.chunk?.(kept);
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
