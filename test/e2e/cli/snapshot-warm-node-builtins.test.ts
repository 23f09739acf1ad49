import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';

const run = promisify(execFile);
const scratch = scratchDirectories();
const targets = useTestTargets();
const WARM = fileURLToPath(new URL('../../../packages/cli/dist/snapshot-warm-node-builtins.js', import.meta.url));
const SNAPSHOT = fileURLToPath(new URL('../../../packages/cli/dist/bundle/statecraft.snapshot', import.meta.url));

/**
 * While the start-up snapshot is built, node's own functions statecraft calls at run time are
 * called once, so they are compiled into it (packages/cli/src/snapshot-warm-node-builtins.ts).
 * What that must never do: leave anything behind the build (a file, a descriptor, a child), fail
 * quietly (then it warms nothing), or put state into the snapshot that every start would reuse —
 * node's cache of random bytes for `randomUUID` is the one it is near.
 */
describe("node's functions warmed into the start-up snapshot", () => {
  it('runs every step, on a scratch directory it removes, and leaves nothing that keeps node alive', async () => {
    const temporary = await scratch.make('statecraft-warm-tmp-');
    const program = `import(${JSON.stringify(WARM)}).then((m) => m.warmNodeBuiltinsForSnapshot()).then((failed) => process.stdout.write(JSON.stringify(failed)))`;
    // Exits on its own, or the timeout kills it and the test fails: nothing may hold the loop open.
    const { stdout } = await run(process.execPath, ['-e', program], {
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', TMPDIR: temporary },
      timeout: 20_000,
    });
    expect(JSON.parse(stdout)).toEqual([]);
    expect(await readdir(temporary)).toEqual([]);
  });

  it('leaves each start from the snapshot its own random UUIDs: two runs record different attempt tags', async () => {
    const tags: string[] = [];
    for (const round of [1, 2]) {
      const { stdout } = await run(
        process.execPath,
        ['--snapshot-blob', SNAPSHOT, '--', 'run', targets.repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'],
        { env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', STATECRAFT_HOME: targets.home.path } },
      );
      const tag = /"recorded": "statecraft-\d{8}T\d{6}Z-[0-9a-f]{6}-1-([0-9a-f-]{36})"/.exec(stdout);
      expect(tag, `run ${round} recorded its attempt tag`).not.toBeNull();
      tags.push(tag?.[1] ?? '');
    }
    expect(tags[0]).not.toBe(tags[1]);
  });
});
