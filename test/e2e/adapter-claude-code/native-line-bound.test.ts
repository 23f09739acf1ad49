import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readEventStream } from '@statecraft/adapter';
import { recordedStreamsDirectory, replayClaudePath } from '@statecraft/adapter-claude-code';
import { baseEnvironment, runAdapter, sandboxMaker } from '../../fixtures/claude-code-adapter-process.js';

const makeSandbox = sandboxMaker();

// A provider that writes one native line without end must not grow the adapter's memory with it:
// the adapter reads claude's stdout through the seam's bounded line splitter (R7.5), exactly as
// the supervisor reads the adapter's.

const ENDLESS_LINE_BYTES = 200 * 1024 * 1024;
/** Node itself, the bundle and the line bound with room to spare; far below the line's 200 MiB. */
const PEAK_RSS_LIMIT_BYTES = 150 * 1024 * 1024;

/** The process's peak resident set so far (VmHWM), or undefined once it is gone. */
function peakResidentBytes(pid: number): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? undefined : Number(match[1]) * 1024;
  } catch {
    return undefined;
  }
}

describe('a native line that never ends', () => {
  it('is reported malformed with the adapter holding bounded memory, and the supervisor reads the stream as malformed (R7.5, R4 row 4)', async () => {
    const sandbox = await makeSandbox({ withClaude: false });
    // The recorded init first, so the adapter has spoken before the endless line begins.
    const initOnly = join(sandbox.root, 'init.jsonl');
    const completed = readFileSync(join(recordedStreamsDirectory(), 'completed.jsonl'), 'utf8');
    await writeFile(initOnly, `${completed.split('\n')[0] ?? ''}\n`);
    const environment = {
      ...baseEnvironment(sandbox),
      STATECRAFT_REPLAY_NATIVE_STREAM: initOnly,
      STATECRAFT_REPLAY_ENDLESS_LINE_BYTES: String(ENDLESS_LINE_BYTES),
    };

    let peak = 0;
    let sampler: NodeJS.Timeout | undefined;
    const run = await runAdapter({
      sandbox,
      environment,
      provider: replayClaudePath(),
      onSpawn: (pid) => {
        // VmHWM is a high-water mark, so sampling it often enough loses nothing but the last tick.
        sampler = setInterval(() => (peak = Math.max(peak, peakResidentBytes(pid) ?? 0)), 5);
      },
    });
    clearInterval(sampler);

    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThan(PEAK_RSS_LIMIT_BYTES);
    expect(run.events.map((event) => event.type)).toEqual(['init']);
    expect(run.otherLines).toHaveLength(1);
    expect(run.otherLines[0]).toMatch(/^malformed provider stream: native line 2: longer than \d+ bytes/);
    expect(Buffer.byteLength(run.otherLines[0] ?? '')).toBeLessThan(8 * 1024);

    const reading = await readEventStream(Readable.from([run.stdoutBytes]));
    expect(reading.streamDiagnostic).toMatchObject({ kind: 'malformed' });
    expect(reading.terminal).toBe('not-recorded');
  }, 120_000);
});
