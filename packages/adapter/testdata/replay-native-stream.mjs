// What every provider stand-in that replays a recorded native stream shares (each adapter's
// testdata/replay-<provider>.mjs): a real child process, so an adapter's mapping is tested across
// a real process boundary without a model (docs/architecture.md, Testing). It answers --version as
// its provider does, reads its stdin to the end, then prints the file named by
// STATECRAFT_REPLAY_NATIVE_STREAM byte for byte.
//   STATECRAFT_REPLAY_INSPECT=<file>  first writes what it was given (argv, cwd, the prompt, and
//                                     what `inspect` adds) to <file>, as JSON
//   STATECRAFT_REPLAY_HANG=1          after printing, never exits (until killed)
//   STATECRAFT_REPLAY_EXIT=<n>        exits with status n (default 0): exit codes are read nowhere
//   STATECRAFT_REPLAY_ENDLESS_LINE_BYTES=<n>  after printing, writes one line of n bytes that never
//                                     ends (no newline), 1 MiB at a time, holding only that MiB
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';

/**
 * Runs the stand-in. `versionLine()` is what `--version` prints; `inspect(args, prompt)` the fields
 * of the inspection beside argv and cwd (in the order the adapter's tests read them);
 * `endlessLineStart` how the never-ending native line begins, in the provider's own shape.
 */
export async function replayNativeStream({ versionLine, inspect, endlessLineStart }) {
  const args = process.argv.slice(2);
  if (args.includes('--version')) {
    process.stdout.write(`${versionLine()}\n`);
    process.exit(0);
  }
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);

  if (process.env.STATECRAFT_REPLAY_INSPECT) {
    writeFileSync(process.env.STATECRAFT_REPLAY_INSPECT, JSON.stringify({ argv: args, cwd: process.cwd(), ...inspect(args, Buffer.concat(chunks).toString('utf8')) }));
  }
  // Bytes, not text: a stream altered to carry invalid UTF-8 must reach the adapter as it is.
  const stream = readFileSync(process.env.STATECRAFT_REPLAY_NATIVE_STREAM ?? '/dev/null');
  process.stdout.write(stream);
  if (process.env.STATECRAFT_REPLAY_ENDLESS_LINE_BYTES) await writeEndlessLine(endlessLineStart, Number(process.env.STATECRAFT_REPLAY_ENDLESS_LINE_BYTES));
  if (process.env.STATECRAFT_REPLAY_HANG === '1') setInterval(() => undefined, 60_000);
  else process.exitCode = Number(process.env.STATECRAFT_REPLAY_EXIT ?? '0');
}

/** A native line with no end: the reader must bound what it holds, not this writer. */
async function writeEndlessLine(start, bytes) {
  // The reader may stop reading (EPIPE) once it has seen enough: nothing more to say then.
  process.stdout.on('error', () => process.exit(0));
  process.stdout.write(start);
  const piece = Buffer.alloc(1024 * 1024, 'x');
  for (let written = 0; written < bytes; written += piece.length) {
    // Waiting for the pipe to drain keeps this writer's own memory at one piece.
    if (!process.stdout.write(written + piece.length <= bytes ? piece : piece.subarray(0, bytes - written))) await once(process.stdout, 'drain');
  }
}
