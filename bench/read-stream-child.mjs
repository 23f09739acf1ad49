// Runs in its own process so its peak RSS is the reader's alone: reads <file> through
// readEventStream and prints one JSON line with the elapsed time, the reading and maxRSS.
import { performance } from 'node:perf_hooks';
import { createReadStream } from 'node:fs';
import { readEventStream } from '@statecraft/adapter';

const file = process.argv[2];
const started = performance.now();
const reading = await readEventStream(createReadStream(file, { highWaterMark: 1024 * 1024 }));
const elapsedMs = performance.now() - started;
process.stdout.write(
  `${JSON.stringify({ elapsedMs, events: reading.events.count, diagnostic: reading.streamDiagnostic, terminal: reading.terminal === 'not-recorded' ? 'not-recorded' : reading.terminal.type, maxRssBytes: process.resourceUsage().maxRSS * 1024 })}\n`,
);
