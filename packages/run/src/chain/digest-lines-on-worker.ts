import { Worker } from 'node:worker_threads';
import type { LineDigester } from './digest-lines.js';

/**
 * The worker's whole program, given as source so the bundled CLI needs no second file: it hashes
 * each line of a batch in place, in the shared buffer the main thread read it into, and answers
 * with the digests' hex, one after the other. Batches are answered in the order they came.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { hash } = require('node:crypto');
const buffers = new Map();
parentPort.on('message', ({ id, buffer, first, ends }) => {
  if (buffer !== undefined) buffers.set(id, new Uint8Array(buffer));
  const bytes = buffers.get(id);
  let hex = '';
  let start = first;
  for (let index = 0; index < ends.length; index += 1) {
    hex += hash('sha256', bytes.subarray(start, ends[index]), 'hex');
    start = ends[index] + 1;
  }
  parentPort.postMessage(hex);
});
`;

const HEX_DIGEST = 64;

interface Waiting {
  lines: number;
  resolve: (digests: string[]) => void;
  reject: (error: Error) => void;
}

/**
 * Hashes on a worker thread while this one parses: over 100,000 attempts (886 MB) hashing alone
 * takes about as long as parsing every record's leading fields, and the two need not wait for
 * each other (docs/decisions.md, 2026-11-30). The reader reads into shared memory, so no byte is
 * copied to the worker and the worker hashes exactly the bytes this thread parses.
 */
export function startWorkerDigester(): LineDigester {
  const worker = new Worker(WORKER_SOURCE, { eval: true });
  // The reading owns the worker and terminates it; a worker left behind must not keep the CLI alive.
  worker.unref();
  const waiting: Waiting[] = [];
  let failure: Error | undefined;
  const fail = (error: Error) => {
    failure ??= error;
    for (const waiter of waiting.splice(0)) waiter.reject(failure);
  };
  worker.on('message', (hex: string) => {
    const waiter = waiting.shift();
    if (waiter === undefined) return;
    const digests = new Array<string>(waiter.lines);
    for (let index = 0; index < waiter.lines; index += 1) digests[index] = hex.slice(index * HEX_DIGEST, (index + 1) * HEX_DIGEST);
    waiter.resolve(digests);
  });
  worker.on('error', (error) => fail(new Error(`the worker hashing the chain failed (${error.message})`, { cause: error })));
  worker.on('exit', (code) => fail(new Error(`the worker hashing the chain exited (code ${code})`)));
  // Each shared buffer is sent once, then named by its id; a batch's line ends move, not copied.
  const sent = new WeakMap<ArrayBufferLike, number>();
  let nextId = 0;
  return {
    allocate: (size) => Buffer.from(new SharedArrayBuffer(size)),
    digest({ bytes, starts, ends }) {
      if (failure !== undefined) return Promise.reject(failure);
      return new Promise((resolve, reject) => {
        waiting.push({ lines: starts.length, resolve, reject });
        // Lines follow each other: each starts just past the newline that ends the one before.
        const lineEnds = Uint32Array.from(ends, (end) => bytes.byteOffset + end);
        const first = bytes.byteOffset + starts[0]!;
        const id = sent.get(bytes.buffer);
        if (id !== undefined) worker.postMessage({ id, first, ends: lineEnds }, [lineEnds.buffer]);
        else {
          sent.set(bytes.buffer, nextId);
          worker.postMessage({ id: nextId, buffer: bytes.buffer, first, ends: lineEnds }, [lineEnds.buffer]);
          nextId += 1;
        }
      });
    },
    async close() {
      // The reading is over, refused or done: nobody awaits a digest still on its way.
      failure ??= new Error('the chain reading is over');
      waiting.length = 0;
      await worker.terminate();
    },
  };
}
