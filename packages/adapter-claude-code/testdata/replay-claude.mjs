#!/usr/bin/env node
// A stand-in for `claude` that replays a recorded native stream: a real child process, so the
// adapter's mapping is tested across a real process boundary without a model (ARCHITECTURE.md,
// Testing). It reads its stdin to the end as claude does, then prints the file named by
// STATECRAFT_REPLAY_NATIVE_STREAM line by line.
//   STATECRAFT_REPLAY_INSPECT=<file>  first writes what it was given (argv, cwd, the --settings
//                                     file's path, mode and content) to <file>, as JSON
//   STATECRAFT_REPLAY_HANG=1          after printing, never exits (until killed)
//   STATECRAFT_REPLAY_EXIT=<n>        exits with status n (default 0): exit codes are read nowhere
import { readFileSync, statSync, writeFileSync } from 'node:fs';

const args = process.argv.slice(2);
if (args.includes('--version')) {
  process.stdout.write('2.1.328+replay (a recorded Claude Code stream, replayed)\n');
  process.exit(0);
}
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);

if (process.env.STATECRAFT_REPLAY_INSPECT) {
  const at = args.indexOf('--settings');
  const path = at >= 0 ? args[at + 1] : undefined;
  const settings = path === undefined ? null : { path, mode: statSync(path).mode & 0o777, content: JSON.parse(readFileSync(path, 'utf8')) };
  writeFileSync(process.env.STATECRAFT_REPLAY_INSPECT, JSON.stringify({ argv: args, cwd: process.cwd(), prompt: Buffer.concat(chunks).toString('utf8'), settings }));
}
// Bytes, not text: a stream altered to carry invalid UTF-8 must reach the adapter as it is.
const stream = readFileSync(process.env.STATECRAFT_REPLAY_NATIVE_STREAM ?? '/dev/null');
process.stdout.write(stream);
if (process.env.STATECRAFT_REPLAY_HANG === '1') setInterval(() => undefined, 60_000);
else process.exitCode = Number(process.env.STATECRAFT_REPLAY_EXIT ?? '0');
