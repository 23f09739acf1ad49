import { Worker } from 'node:worker_threads';
import type { LineDigester } from './digest-lines.js';
import type { LineBatch } from './read-chain-lines.js';
import type { WorkerBatchReading, WorkerReadingSetup } from './summary-reading-on-worker.js';

/**
 * The worker's whole program, given as source so the bundled CLI needs no second file: it hashes
 * each line of a batch in place, in the shared buffer the main thread read it into, and answers
 * with the digests' hex, one after the other — and, for a batch it is asked to read, what its
 * reading function (given as source too) read of the batch's first lines. Batches are answered
 * in the order they came.
 */
function workerSource(reading: WorkerReadingSetup | undefined): string {
  return `
const { parentPort, workerData } = require('node:worker_threads');
const { hash } = require('node:crypto');
const readBatch = ${reading === undefined ? 'undefined' : `(${reading.source})(workerData.reading)`};
const finished = new Int32Array(workerData.finished);
const buffers = new Map();
parentPort.on('message', ({ id, buffer, first, ends, read, last }) => {
  if (buffer !== undefined) buffers.set(id, Buffer.from(buffer));
  const bytes = buffers.get(id);
  let hex = '';
  const digests = read > 0 ? new Array(ends.length) : undefined;
  let start = first;
  for (let index = 0; index < ends.length; index += 1) {
    const digest = hash('sha256', bytes.subarray(start, ends[index]), 'hex');
    hex += digest;
    if (digests !== undefined) digests[index] = digest;
    start = ends[index] + 1;
  }
  if (digests === undefined) {
    Atomics.add(finished, 0, 1);
    return parentPort.postMessage(hex);
  }
  const { verified, firstPrev, values } = readBatch(bytes, first, ends, digests, read, last);
  // As JSON text: a string crosses threads as one copy, where cloning the values costs per value.
  const text = JSON.stringify(values);
  Atomics.add(finished, 0, 1);
  parentPort.postMessage({ hex, verified, firstPrev, values: text });
});
`;
}

const HEX_DIGEST = 64;

interface Waiting {
  lines: number;
  resolve: (answer: { digests: string[]; reading: Omit<WorkerBatchReading, 'digests'> | undefined }) => void;
  reject: (error: Error) => void;
}

/**
 * Hashes on a worker thread while this one parses: over 100,000 attempts (886 MB) hashing alone
 * takes about as long as parsing every record's leading fields, and the two need not wait for
 * each other (decision 0023). The reader reads into shared memory, so no byte is
 * copied to the worker and the worker hashes exactly the bytes this thread parses. Given a
 * reading, the worker also reads the batches it is asked to (`digestAndRead`), so the parsing is
 * shared too: hashing alone left it idle most of the time (decision 0023).
 */
export function startWorkerDigester(reading?: WorkerReadingSetup): LineDigester {
  // How many batches the worker has answered, counted in shared memory: read at once, where its
  // messages are seen only when this thread's event loop turns (after any file read it was waiting for).
  const finished = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(workerSource(reading), { eval: true, workerData: { reading: reading?.data, finished: finished.buffer } });
  // The reading owns the worker and terminates it; a worker left behind must not keep the CLI alive.
  worker.unref();
  const waiting: Waiting[] = [];
  let failure: Error | undefined;
  const fail = (error: Error) => {
    failure ??= error;
    for (const waiter of waiting.splice(0)) waiter.reject(failure);
  };
  worker.on('message', (answer: string | { hex: string; verified: number; firstPrev: string; values: string }) => {
    const waiter = waiting.shift();
    if (waiter === undefined) return;
    const hex = typeof answer === 'string' ? answer : answer.hex;
    const digests = new Array<string>(waiter.lines);
    for (let index = 0; index < waiter.lines; index += 1) digests[index] = hex.slice(index * HEX_DIGEST, (index + 1) * HEX_DIGEST);
    waiter.resolve({
      digests,
      reading:
        typeof answer === 'string' ? undefined : { verified: answer.verified, firstPrev: answer.firstPrev, values: JSON.parse(answer.values) as unknown[] },
    });
  });
  worker.on('error', (error) => fail(new Error(`the worker hashing the chain failed (${error.message})`, { cause: error })));
  worker.on('exit', (code) => fail(new Error(`the worker hashing the chain exited (code ${code})`)));
  // Each shared buffer is sent once, then named by its id; a batch's line ends move, not copied.
  const sent = new WeakMap<ArrayBufferLike, number>();
  let nextId = 0;
  // \`read\`: how many of the batch's first lines the worker reads as well as hashes.
  const send = ({ bytes, starts, ends, endsFile }: LineBatch, read: number) => {
    if (failure !== undefined) return Promise.reject(failure);
    return new Promise<Parameters<Waiting['resolve']>[0]>((resolve, reject) => {
      waiting.push({ lines: starts.length, resolve, reject });
      // Lines follow each other: each starts just past the newline that ends the one before.
      const lineEnds = Uint32Array.from(ends, (end) => bytes.byteOffset + end);
      const first = bytes.byteOffset + starts[0]!;
      const known = sent.get(bytes.buffer);
      const id = known ?? nextId;
      if (known === undefined) {
        sent.set(bytes.buffer, nextId);
        nextId += 1;
      }
      const message = { id, first, ends: lineEnds, read, last: endsFile, buffer: known === undefined ? bytes.buffer : undefined };
      worker.postMessage(message, [lineEnds.buffer]);
    });
  };
  return {
    allocate: (size) => Buffer.from(new SharedArrayBuffer(size)),
    finished: () => Atomics.load(finished, 0),
    digest: (batch) => send(batch, 0).then(({ digests }) => digests),
    ...(reading === undefined
      ? {}
      : {
          digestAndRead: (batch: LineBatch, lines: number) =>
            send(batch, lines).then(({ digests, reading: read }) => ({ digests, ...(read ?? { verified: 0, firstPrev: '', values: [] }) })),
        }),
    async close() {
      // The reading is over, refused or done: nobody awaits a digest still on its way.
      failure ??= new Error('the chain reading is over');
      waiting.length = 0;
      await worker.terminate();
    },
  };
}
