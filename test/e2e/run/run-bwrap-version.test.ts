import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

const targets = useTestTargets();
const scratch = scratchDirectories();

/**
 * A `bwrap` first on PATH that logs each `--version` it is asked, then runs the real bwrap (exec:
 * the same process, so the boundary's PID namespace and kill are the real one's).
 */
async function countingBwrap(): Promise<{ bin: string; log: string; script: string }> {
  const bin = await scratch.make('statecraft-counting-bwrap-');
  const log = join(bin, 'versions.log');
  const script = join(bin, 'bwrap');
  await writeFile(script, `#!/bin/sh\nif [ "$1" = --version ]; then printf 'asked\\n' >> '${log}'; fi\nexec /usr/bin/bwrap "$@"\n`);
  await chmod(script, 0o755);
  await writeFile(log, '');
  return { bin, log, script };
}

async function runThrough(bin: string): Promise<string> {
  const run = await runStatecraft(['run', targets.repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], {
    home: targets.home.path,
    env: { PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}` },
  });
  expect(run.exitCode).toBe(0);
  return parseJson<{ posture: { boundary: { mechanism: string; version: string } } }>(run).posture.boundary.version;
}

const asked = async (log: string): Promise<number> => (await readFile(log, 'utf8')).split('\n').filter((line) => line === 'asked').length;

// Issue 9 (d): every child process is paid on every run. bwrap's version (R12's boundary record) is
// asked once per bwrap binary, remembered in the product home by the binary's identity.
describe("bwrap's version is asked once per binary, not on every launch (R12)", () => {
  it('two runs through the same bwrap ask its version once and record what it said; a bwrap that changed is asked again', async () => {
    const bwrap = await countingBwrap();
    const real = (await execa('/usr/bin/bwrap', ['--version'])).stdout.trim();

    expect(await runThrough(bwrap.bin)).toBe(real);
    expect(await runThrough(bwrap.bin)).toBe(real);
    expect(await asked(bwrap.log)).toBe(1);

    // Rewritten (its identity moves): the remembered answer is for other bytes, so it is asked again.
    await writeFile(bwrap.script, `${await readFile(bwrap.script, 'utf8')}# changed\n`);
    expect(await runThrough(bwrap.bin)).toBe(real);
    expect(await asked(bwrap.log)).toBe(2);
  });
});
