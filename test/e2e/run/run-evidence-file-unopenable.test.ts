import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveTarget, targetDirectoryIn } from '@statecraft/records';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

/**
 * The adapter's two evidence files (its stream and its stderr) are opened together before the
 * spawn (StreamTee.openPair). One that cannot be opened stops the launch as one opened alone did:
 * an i/o failure (exit 4) naming that file, nothing spawned, and a chain that still reads (R8.4).
 */
const targets = useTestTargets();

describe('an evidence file that cannot be opened before the spawn', () => {
  it("is an i/o failure naming the adapter's stderr file, with nothing spawned, and the chain still reads", async () => {
    const home = targets.home.path;
    const first = parseJson<{ runId: string }>(
      await runStatecraft(['run', targets.repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], { home }),
    );
    const resolution = await resolveTarget(targets.repository.path);
    if (resolution.kind !== 'resolved') throw new Error(resolution.message);
    // A directory where the retry's stderr file goes: opening it for writing fails (EISDIR).
    const stderrFile = join(targetDirectoryIn(home, resolution.target.key), 'attempts', first.runId, '2', 'stderr.log');
    await mkdir(stderrFile, { recursive: true });

    const retry = await runStatecraft(
      ['run', targets.repository.path, '--adapter', 'fixture', '--retry', first.runId, '--prompt', 'scenario: complete', '--json'],
      {
        home,
      },
    );
    expect(retry.exitCode).toBe(4);
    const { failed } = parseJson<{ failed: { path: string; message: string; spawned: boolean } }>(retry);
    expect(failed.path).toBe(stderrFile);
    expect(failed.message).toContain(`could not open for writing ${stderrFile}`);
    expect(failed.spawned).toBe(false);

    const list = await runStatecraft(['run', 'list', targets.repository.path, '--json'], { home });
    expect(list.exitCode).toBe(0);
  });
});
