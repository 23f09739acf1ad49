#!/usr/bin/env node
// A stand-in for `codex` that replays a recorded native stream: a real child process, so the
// adapter's mapping is tested across a real process boundary without a model (docs/architecture.md,
// Testing). It reads its stdin to the end as codex exec does, then prints the file named by
// STATECRAFT_REPLAY_NATIVE_STREAM line by line.
//   STATECRAFT_REPLAY_INSPECT=<file>  first writes what it was given (argv, cwd, CODEX_HOME, its
//                                     config.toml's mode and text, the prompt) to <file>, as JSON
//   STATECRAFT_REPLAY_VERSION=<v>     answers `codex-cli <v>` to --version (default 0.171.0+replay,
//                                     so a replay is never taken for the pinned binary)
//   STATECRAFT_REPLAY_HANG=1          after printing, never exits (until killed)
//   STATECRAFT_REPLAY_EXIT=<n>        exits with status n (default 0): exit codes are read nowhere
//   STATECRAFT_REPLAY_ENDLESS_LINE_BYTES=<n>  after printing, writes one line of n bytes that never
//                                     ends (no newline), 1 MiB at a time, holding only that MiB
import { once } from 'node:events';
import { readFileSync, statSync, writeFileSync } from 'node:fs';

const args = process.argv.slice(2);
if (args.includes('--version')) {
  process.stdout.write(`codex-cli ${process.env.STATECRAFT_REPLAY_VERSION ?? '0.171.0+replay'}\n`);
  process.exit(0);
}
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);

if (process.env.STATECRAFT_REPLAY_INSPECT) {
  const home = process.env.CODEX_HOME;
  const path = home === undefined ? undefined : `${home}/config.toml`;
  const config = path === undefined ? null : { path, mode: statSync(path).mode & 0o777, text: readFileSync(path, 'utf8') };
  writeFileSync(process.env.STATECRAFT_REPLAY_INSPECT, JSON.stringify({ argv: args, cwd: process.cwd(), codexHome: home ?? null, prompt: Buffer.concat(chunks).toString('utf8'), config }));
}
// Bytes, not text: a stream altered to carry invalid UTF-8 must reach the adapter as it is.
const stream = readFileSync(process.env.STATECRAFT_REPLAY_NATIVE_STREAM ?? '/dev/null');
process.stdout.write(stream);
if (process.env.STATECRAFT_REPLAY_ENDLESS_LINE_BYTES) await writeEndlessLine(Number(process.env.STATECRAFT_REPLAY_ENDLESS_LINE_BYTES));
if (process.env.STATECRAFT_REPLAY_HANG === '1') setInterval(() => undefined, 60_000);
else process.exitCode = Number(process.env.STATECRAFT_REPLAY_EXIT ?? '0');

/** A native line with no end: the reader must bound what it holds, not this writer. */
async function writeEndlessLine(bytes) {
  // The reader may stop reading (EPIPE) once it has seen enough: nothing more to say then.
  process.stdout.on('error', () => process.exit(0));
  process.stdout.write('{"type":"item.completed","item":{"id":"item_9","type":"agent_message","text":"');
  const piece = Buffer.alloc(1024 * 1024, 'x');
  for (let written = 0; written < bytes; written += piece.length) {
    // Waiting for the pipe to drain keeps this writer's own memory at one piece.
    if (!process.stdout.write(written + piece.length <= bytes ? piece : piece.subarray(0, bytes - written))) await once(process.stdout, 'drain');
  }
}
