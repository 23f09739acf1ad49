import { existsSync } from 'node:fs';
import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { createSmallProductHome, type SmallProductHome } from '../../fixtures/small-product-home.js';
import { finishedRun, parseJson, startStatecraft, type CliRun } from '../../fixtures/statecraft-cli.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';

/**
 * Issue 29 item 10: a product home statecraft cannot make. Node's recursive mkdir retries for ever
 * on /proc and /sys (ENOENT under a directory that exists), on the main thread, where no signal
 * handler runs: `run` spun at full CPU and ignored Ctrl-C and SIGTERM. Every verb that writes the
 * home now fails at once, exit 4, naming the home; the verbs that only read it answer at once.
 */

interface Failed {
  failed: { path: string | null; message: string };
}

const targets = useTestTargets();
const scratch = scratchDirectories();
const mounted: SmallProductHome[] = [];
afterAll(async () => {
  for (const home of mounted.splice(0)) await home.remove();
});

/** Generous for a loaded machine; the spin it guards against never ends at all. */
const PROMPTLY_MS = 15_000;

/** Runs a verb against `home`, killed (SIGTERM, then SIGKILL) if it has not ended well past PROMPTLY_MS. */
async function timed(args: readonly string[], home: string): Promise<{ run: CliRun; elapsed: number }> {
  const started = Date.now();
  const run = await finishedRun(startStatecraft(args, { home, timeoutMs: PROMPTLY_MS * 2 }));
  return { run, elapsed: Date.now() - started };
}

type Place = () => Promise<{ home: string; why: string } | undefined>;

const PLACES: Record<string, Place> = {
  'a path under /proc': () => Promise.resolve({ home: '/proc/statecraft-nope', why: 'procfs refuses mkdir with ENOENT' }),
  'a path under /sys': () => Promise.resolve({ home: '/sys/statecraft-nope', why: 'sysfs refuses mkdir' }),
  '/proc itself': () => Promise.resolve({ home: '/proc', why: 'a directory that takes no new directory' }),
  'a path under a file': async () => {
    const file = join(await scratch.make('statecraft-home-file'), 'a-file');
    await writeFile(file, 'not a directory\n');
    return { home: join(file, 'home'), why: 'a component is a regular file' };
  },
  'a symbolic link to nothing': async () => {
    const home = join(await scratch.make('statecraft-home-link'), 'home');
    await symlink('/proc/statecraft-nope', home);
    return { home, why: 'mkdir through a link to nothing answers EEXIST, and its parent takes a directory' };
  },
  'a path under a read-only directory': async () => {
    const readOnly = await createSmallProductHome(1024 * 1024, { readOnly: true });
    mounted.push(readOnly);
    // Root writes through permission bits; only a read-only mount refuses it.
    if (readOnly.how !== 'tmpfs') return undefined;
    return { home: join(readOnly.path, 'deeper', 'home'), why: 'a read-only tmpfs' };
  },
};

const WRITING_VERBS: Record<string, (target: string) => string[]> = {
  run: (target) => ['run', target, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'],
  accept: (target) => ['accept', target, '20261202T024107Z-5e36a1', '--json'],
  qualify: () => ['qualify', '--fixture', '--json'],
  'run reconcile': (target) => ['run', 'reconcile', target, '--json'],
  'keys generate': () => ['keys', 'generate', '--json'],
};

describe('a product home statecraft cannot make (issue 29 item 10)', () => {
  describe.each(Object.keys(PLACES))('%s', (placeName) => {
    it.each(Object.keys(WRITING_VERBS))('%s fails at once, exit 4, naming the home', async (verb) => {
      const place = await PLACES[placeName]?.();
      if (place === undefined) {
        console.info(`${placeName}: no read-only mount could be made here; nothing to check`);
        return;
      }
      const { run, elapsed } = await timed(WRITING_VERBS[verb]?.(targets.repository.path) ?? [], place.home);
      expect(elapsed, `${place.why}: ${run.stderr}`).toBeLessThan(PROMPTLY_MS);
      expect(run.exitCode, run.stderr).toBe(4);
      const { failed } = parseJson<Failed>(run);
      if (verb === 'qualify') {
        // qualify names where its record would go: the records directory, or the nearest directory on the way that exists.
        const named = failed.path ?? '';
        expect(named === join(place.home, 'qualifications') || named === place.home || place.home.startsWith(`${named}/`), named).toBe(true);
        expect(failed.message).toContain(
          `${named}: the product home cannot be written, so no qualification could be recorded in ${join(place.home, 'qualifications')}`,
        );
        return;
      }
      expect(failed.path).toBe(place.home);
      expect(failed.message).toContain(`${place.home}: the product home cannot be made or written there`);
      expect(run.stderr).toContain(`statecraft: ${place.home}: the product home cannot be made or written there`);
      // Nothing is made where it cannot be used: the probe leaves nothing behind.
      expect(existsSync(place.home)).toBe(place.home === '/proc');
    });

    it('doctor and env plan, which only read the home, answer at once', async () => {
      const place = await PLACES[placeName]?.();
      if (place === undefined) return;
      for (const args of [
        ['doctor', '--json'],
        ['env', 'plan', targets.repository.path, '--adapter', 'fixture', '--json'],
      ]) {
        const { run, elapsed } = await timed(args, place.home);
        expect(elapsed, `${args.join(' ')}: ${place.why}`).toBeLessThan(PROMPTLY_MS);
        expect([0, 1, 4], `${args.join(' ')}: ${run.stderr}`).toContain(run.exitCode);
        // doctor never reports health where `run` would fail: a home that cannot be made is a finding.
        if (args[0] === 'doctor' && place.home !== '/proc') expect(run.exitCode, run.stdout).not.toBe(0);
        parseJson(run);
        if (run.exitCode === 4) expect(parseJson<Failed>(run).failed.path ?? '').toContain(place.home);
      }
    });
  });

  it('Ctrl-C and SIGTERM end a run whose home is on /proc (they were ignored while mkdir spun)', async () => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const started = Date.now();
      const child = startStatecraft(WRITING_VERBS.run?.(targets.repository.path) ?? [], { home: '/proc/statecraft-nope', timeoutMs: PROMPTLY_MS * 2 });
      // Past start-up, where the spin began: a signal sent before node listens ends it by default either way.
      setTimeout(() => child.kill(signal), 2_000);
      const run = await finishedRun(child);
      expect(Date.now() - started, signal).toBeLessThan(PROMPTLY_MS);
      // Either the signal (node's default: ended by it, -1 here) or the failure came first; neither spins.
      expect([4, -1], `${signal}: exit ${run.exitCode}: ${run.stderr}`).toContain(run.exitCode);
    }
  });
});
