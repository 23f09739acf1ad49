import type { Readable } from 'node:stream';
import type { EventStreamReader } from '../stream/event-stream-reader.js';
import type { SupervisedAttempt } from './attempt.js';
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
  let exit: Exit = 'not-observed';
  let spawnError: unknown;
  let callbackError: unknown;
  let reportCallbackFailure: (value: 'callback-failed') => void = () => undefined;
  const callbackFailure = new Promise<'callback-failed'>((resolve) => {
    reportCallbackFailure = resolve;
  });
  /** The caller's onEvent runs inside the reader; if it throws, that is the caller's failure, not the stream's. */
  const guarded = (step: () => unknown) => {
    try {
      step();
    } catch (error) {
      listening = false;
      callbackError = error;
      reportCallbackFailure('callback-failed');
    }
  };

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
    chunk: (chunk) => listening && guarded(() => reader.push(chunk)),
    end: () => listening && guarded(() => reader.end()),
    fail: (error) => listening && reader.fail(error),
  });
  const stderrEnded = follow(child.stderr, stderrTee, {});

  return {
    normalEnd: Promise.all([exited, stdoutEnded, stderrEnded]).then(() => 'normal-end' as const),
    spawnFailure,
    spawnError: () => spawnError,
    callbackFailure,
    callbackError: () => callbackError,
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
