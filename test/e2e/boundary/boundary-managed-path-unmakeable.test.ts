import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { managedPathAdapters, PASSES_HOME } from '../../fixtures/managed-path-adapters.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { finishedRun, parseJson, runStatecraft, startStatecraft } from '../../fixtures/statecraft-cli.js';

// A managed path statecraft cannot make (R10.6, R12): node's recursive mkdir retries for ever on
// /proc (ENOENT under a directory that exists), on a thread no signal reaches, so a launch whose
// adapter declared `~/.provider` under a HOME there spun at full CPU. Each managed path is made one
// component at a time (make-directories.ts): the first refusal ends the launch at once, exit 4,
// naming the path, with nothing spawned and nothing recorded.

const targets = useTestTargets({ sharedRepository: false });
const scratch = scratchDirectories();
const { hostileAdapterManaging } = managedPathAdapters(targets);

/** Outside /tmp, whose links the managed-path check refuses on sight: a HOME there may be reached through a link. */
const outsideTmp = `/var/tmp/statecraft-managed-unmakeable-${process.pid}`;
afterAll(async () => {
  await rm(outsideTmp, { recursive: true, force: true });
});

/** Generous for a loaded machine; the spin it guards against never ends at all. */
const PROMPTLY_MS = 15_000;

interface Failed {
  failed: { path: string | null; message: string };
}

type Place = () => Promise<{ home: string; managed: string; why: string }>;

const PLACES: Record<string, Place> = {
  'a HOME under /proc': () => Promise.resolve({ home: '/proc/statecraft-nope', managed: '/proc/statecraft-nope/.provider', why: 'procfs answers ENOENT' }),
  'a HOME under /sys': () => Promise.resolve({ home: '/sys/statecraft-nope', managed: '/sys/statecraft-nope/.provider', why: 'sysfs refuses mkdir' }),
  'a HOME that is a link into /proc': async () => {
    await mkdir(outsideTmp, { recursive: true });
    const home = join(outsideTmp, 'linked-home');
    await symlink('/proc/self', home);
    return { home, managed: join(home, '.provider'), why: 'the link leads where nothing can be made' };
  },
  'a HOME below a link into /proc, planted in a parent': async () => {
    await mkdir(outsideTmp, { recursive: true });
    const parent = join(outsideTmp, 'linked-parent');
    await symlink('/proc/self', parent);
    const home = join(parent, 'home');
    return { home, managed: join(home, '.provider'), why: 'a parent leads where nothing can be made' };
  },
  'a HOME where a file stands in the way': async () => {
    const home = await scratch.make('statecraft-managed-file-home');
    await writeFile(join(home, 'state'), 'a file, not a directory\n');
    return { home, managed: join(home, 'state', '.provider'), why: 'a component is a regular file' };
  },
};

describe('a managed path that cannot be made ends the launch at once, exit 4, naming it (R10.6, R12)', () => {
  it.each(Object.keys(PLACES))('%s', async (placeName) => {
    const place = await PLACES[placeName]?.();
    if (place === undefined) throw new Error(placeName);
    const repository = await targets.fresh();
    const declared = place.managed.slice(place.home.length + 1);
    const adapter = await hostileAdapterManaging([`~/${declared}`], '', PASSES_HOME);
    const started = Date.now();
    const run = await finishedRun(
      startStatecraft(['run', repository.path, '--adapter', adapter, '--prompt', 'scenario: complete', '--json'], {
        home: targets.home.path,
        env: { HOME: place.home },
        timeoutMs: PROMPTLY_MS * 2,
      }),
    );
    expect(Date.now() - started, `${place.why}: ${run.stderr}`).toBeLessThan(PROMPTLY_MS);
    expect(run.exitCode, run.stderr).toBe(4);
    const { failed } = parseJson<Failed>(run);
    expect(failed.path).toBe(place.managed);
    expect(failed.message).toContain(`the adapter's managed path "~/${declared}": ${place.managed} cannot be made`);
    expect(run.stderr).toContain(`the adapter's managed path "~/${declared}"`);
    // Nothing of the attempt is recorded, and its workspace is withdrawn.
    const listed = await runStatecraft(['run', 'list', repository.path, '--json'], { home: targets.home.path });
    expect(parseJson<{ attempts: unknown[] }>(listed).attempts).toEqual([]);
    expect((await repository.git('worktree', 'list', '--porcelain')).match(/^worktree /gm)).toHaveLength(1);
  });
});
