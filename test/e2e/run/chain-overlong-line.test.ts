import { appendFile, stat, truncate } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { runMeasuringPeak } from '../../fixtures/peak-memory.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// R8.4, "nothing lost": a torn tail is an append cut short, and the next append cuts it. Bytes after
// the last record that no append could have written — longer than any record statecraft writes
// (record-bound.ts) — are damage or another writer's, and are refused, never cut. Before this, a
// 3 GiB tail took `run list` to 6.4 GB and 26 s, and `run` was killed by the allocator (signal 6,
// an exit outside the closed set) — and a tail of a few hundred MB was silently cut.

const GIBIBYTE = 1024 ** 3;

const targets = useTestTargets();
const scratch = scratchDirectories();

/** A target with one recorded attempt: its chain's path and length. */
async function recordedChain(): Promise<{ repository: string; chain: string; bytes: number }> {
  const repository = (await targets.fresh()).path;
  const run = await runStatecraft(['run', repository, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], { home: targets.home.path });
  expect(run.exitCode, run.stderr).toBe(0);
  const chain = parseJson<{ records: { chain: string } }>(run).records.chain;
  return { repository, chain, bytes: (await stat(chain)).size };
}

describe('a chain with a line longer than any record (R8.4)', () => {
  it('a 1 GiB tail with no line end is refused by run list, run and doctor, with memory bounded, and never cut', async () => {
    const { repository, chain, bytes } = await recordedChain();
    // Sparse: a gibibyte of zeros the file system does not store.
    await truncate(chain, bytes + GIBIBYTE);
    const refusal = `${chain}: line 3 (from byte ${bytes}) is longer than any record statecraft writes`;

    const listed = await runMeasuringPeak(['run', 'list', repository, '--json'], { home: targets.home.path, scratch });
    expect(listed.run.exitCode, listed.run.stderr).toBe(2);
    expect(listed.run.stderr).toContain(refusal);
    // It reads no further than the bound (32 MiB); reading the whole tail took 2.5 GB here.
    expect(listed.peakMB).toBeLessThan(400);

    const run = await runMeasuringPeak(['run', repository, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], {
      home: targets.home.path,
      scratch,
    });
    expect(run.run.exitCode, run.run.stderr).toBe(2);
    expect(parseJson<{ refused: { reason: string; message: string } }>(run.run).refused).toMatchObject({
      reason: 'chain-broken',
      message: expect.stringContaining(refusal) as unknown,
    });
    expect(run.peakMB).toBeLessThan(400);
    expect((await stat(chain)).size, 'the tail is kept, not cut as a torn append').toBe(bytes + GIBIBYTE);

    const doctor = await runStatecraft(['doctor', '--json'], { home: targets.home.path });
    expect(doctor.exitCode, doctor.stderr).toBe(1);
    expect(doctor.stdout).toContain(refusal);
  });

  it('a long line followed by records is refused naming it, where a short torn tail is still cut', async () => {
    const { repository, chain, bytes } = await recordedChain();
    await appendFile(chain, `${'x'.repeat(40 * 1024 * 1024)}\n{"prev":"anything"}\n`);
    const listed = await runStatecraft(['run', 'list', repository, '--json'], { home: targets.home.path });
    expect(listed.exitCode, listed.stderr).toBe(2);
    expect(listed.stderr).toContain(`${chain}: line 3 (from byte ${bytes}) is longer than any record statecraft writes`);

    // A tail under the bound is what an append cut short leaves: reported, then cut by the next run.
    const short = await recordedChain();
    await appendFile(short.chain, '{"prev":"0123');
    const next = await runStatecraft(['run', short.repository, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], {
      home: targets.home.path,
    });
    expect(next.exitCode, next.stderr).toBe(0);
    expect(parseJson<{ truncatedTail: unknown }>(next).truncatedTail).toMatchObject({ offset: short.bytes, bytes: 13 });
  });
});
