import { execFile } from 'node:child_process';
import { copyFile, mkdir, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fixtureAdapterPath } from '@statecraft/adapter';
import { describe, expect, it } from 'vitest';
import { runMeasuringPeak } from '../../fixtures/peak-memory.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// The small files statecraft reads whole — an adapter's manifest (the adapter's own, untrusted),
// a qualification record, the target's name in the home — are read as regular files only, and no
// further than a bound: a FIFO at the path hung the verb (readFile waits for a writer), and a huge
// file cost its size in memory before it was refused as not JSON.

const targets = useTestTargets();
const scratch = scratchDirectories();

/** A copy of the fixture adapter whose manifest path holds what `make` puts there. */
async function adapterWithManifest(make: (manifest: string) => Promise<void>): Promise<{ executable: string; manifest: string }> {
  const directory = await scratch.make('statecraft-manifest');
  const executable = join(directory, 'adapter');
  await copyFile(fixtureAdapterPath(), executable);
  const manifest = `${executable}.manifest.json`;
  await make(manifest);
  return { executable, manifest };
}

describe('the small files statecraft reads whole (R2.2, R8.4)', () => {
  it("an adapter's manifest that is a FIFO is refused (exit 2), not waited on", async () => {
    const { executable, manifest } = await adapterWithManifest(async (path) => {
      await promisify(execFile)('mkfifo', [path]);
    });
    const run = await runStatecraft(['run', targets.repository.path, '--adapter', executable, '--prompt', 'scenario: complete', '--json'], {
      home: targets.home.path,
      timeoutMs: 20_000,
    });
    expect(run.exitCode, run.stderr).toBe(2);
    expect(parseJson<{ refused: { message: string } }>(run).refused.message).toContain(`${manifest}: cannot read the manifest (not a regular file`);
  });

  it("an adapter's 1.5 GiB manifest is refused at its bound, read no further", async () => {
    const { executable, manifest } = await adapterWithManifest(async (path) => {
      await copyFile(`${fixtureAdapterPath()}.manifest.json`, path);
      await truncate(path, 1.5 * 1024 ** 3);
    });
    const run = await runMeasuringPeak(['run', targets.repository.path, '--adapter', executable, '--prompt', 'scenario: complete', '--json'], {
      home: targets.home.path,
      scratch,
    });
    expect(run.run.exitCode, run.run.stderr).toBe(2);
    expect(parseJson<{ refused: { message: string } }>(run.run).refused.message).toContain(
      `${manifest}: cannot read the manifest (longer than 1048576 bytes, more than such a file holds)`,
    );
    // Read whole, the manifest alone was 1.5 GB here.
    expect(run.peakMB).toBeLessThan(300);
  });

  it('a qualification record that is a FIFO is listed as unreadable, not waited on', async () => {
    const home = await scratch.make('statecraft-qualifications-home');
    await mkdir(join(home, 'qualifications'));
    await promisify(execFile)('mkfifo', [join(home, 'qualifications', 'stuck.json')]);
    const listed = await runStatecraft(['qualifications', 'list', '--json'], { home, timeoutMs: 20_000 });
    expect(listed.exitCode, listed.stderr).toBe(1);
    expect(parseJson<{ unreadable: { path: string; message: string }[] }>(listed).unreadable).toEqual([
      { path: join(home, 'qualifications', 'stuck.json'), message: expect.stringContaining('not a regular file') as unknown },
    ]);
  });
});
