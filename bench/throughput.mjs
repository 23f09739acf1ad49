// (b) Stream throughput: a 200 MB NDJSON event stream through readEventStream, in a child process
// so its peak RSS is the reader's own, beside `cat file > /dev/null` as the physical limit.
import { performance } from 'node:perf_hooks';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateStream } from './generate-stream.mjs';

const here = dirname(fileURLToPath(import.meta.url));

export function measureThroughput(megabytes = 200) {
  const directory = mkdtempSync(join(tmpdir(), 'statecraft-bench-stream-'));
  const file = join(directory, 'stream.ndjson');
  try {
    const generated = generateStream(file, megabytes);
    const mb = generated.bytes / (1024 * 1024);
    // Once to bring the file into the page cache, so both readers are measured against memory.
    execFileSync('sh', ['-c', 'cat "$1" > /dev/null', 'sh', file]);
    const catStarted = performance.now();
    execFileSync('sh', ['-c', 'cat "$1" > /dev/null', 'sh', file]);
    const catMs = performance.now() - catStarted;
    const report = JSON.parse(execFileSync(process.execPath, [join(here, 'read-stream-child.mjs'), file], { encoding: 'utf8' }));
    if (report.events !== generated.events || report.diagnostic !== 'none' || report.terminal !== 'result') {
      throw new Error(`the reader did not read the generated stream cleanly: ${JSON.stringify(report)}`);
    }
    return {
      streamMB: mb,
      events: generated.events,
      averageLineBytes: generated.bytes / generated.events,
      readerMBps: mb / (report.elapsedMs / 1000),
      readerPeakRssMB: report.maxRssBytes / (1024 * 1024),
      catMBps: mb / (catMs / 1000),
    };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
