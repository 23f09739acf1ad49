import { mkdir, readFile, rm } from 'node:fs/promises';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { productHomeViewsIn } from '@statecraft/environment';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { progressDetail, readKeptEvents } from '../../fixtures/attempt-stream.js';
import { createSampleRepository } from '../../fixtures/sample-repository.js';
import { STATECRAFT_BIN, parseJson, runStatecraft, statecraftEnvironment, type CliRun } from '../../fixtures/statecraft-cli.js';

// R12: the product home was hidden by its path only. A bind mount of the home's parent elsewhere
// (as a Docker volume or a bind-mounted home directory makes) reaches the same directory under
// another path, and the agent read the chain through it while the probe passed. Every other mount
// reaching the home is now hidden and probed as the home is. The mounts are real: made on this
// host as root; where mounting is refused (not root) or STATECRAFT_TEST_NO_MOUNT=1 asks for it,
// inside a mount namespace of its own (`unshare --user --map-root-user --mount`) around each
// statecraft run — the same code reading the same kind of mount table. Which one ran is said.

const base = realpathSync(mkdtempSync(join(tmpdir(), 'statecraft-home-views-')));
const source = join(base, 'bindsrc');
const alias = join(base, 'bindalias');
const partSource = join(source, 'home', 'targets');
const partAlias = join(base, 'partalias');
const home = join(source, 'home');
let how: 'host mount' | 'mount namespace' | undefined;
const mounted: string[] = [];

afterAll(async () => {
  for (const point of mounted.splice(0).reverse()) await execa('umount', [point], { reject: false });
  await rm(base, { recursive: true, force: true });
});

/** Makes the two bind mounts on the host when it can; answers how the runs will see them. */
async function mountAliases(): Promise<'host mount' | 'mount namespace'> {
  await mkdir(partSource, { recursive: true });
  await mkdir(alias, { recursive: true });
  await mkdir(partAlias, { recursive: true });
  if (process.env.STATECRAFT_TEST_NO_MOUNT === '1') {
    console.info('bind mounts made in a mount namespace of each run: STATECRAFT_TEST_NO_MOUNT=1');
    return 'mount namespace';
  }
  const whole = await execa('mount', ['--bind', source, alias], { reject: false });
  if (whole.exitCode !== 0) {
    console.info(`bind mounts made in a mount namespace of each run: the host refused (${whole.stderr.trim() || whole.message})`);
    return 'mount namespace';
  }
  mounted.push(alias);
  const part = await execa('mount', ['--bind', partSource, partAlias], { reject: false });
  if (part.exitCode !== 0) throw new Error(`mount --bind ${partSource} ${partAlias}: ${part.stderr}`);
  mounted.push(partAlias);
  console.info(`bind mounts made on the host: ${source} at ${alias}, ${partSource} at ${partAlias}`);
  return 'host mount';
}

/** `statecraft <args>` with the product home under the bind-mounted directory, the mounts seen as `how` says. */
async function statecraft(args: readonly string[], env: Record<string, string> = {}): Promise<CliRun> {
  const command =
    how === 'host mount'
      ? [STATECRAFT_BIN, ...args]
      : [
          'unshare',
          '--user',
          '--map-root-user',
          '--mount',
          '/bin/sh',
          '-c',
          'mount --bind "$1" "$2" && mount --bind "$3" "$4" && shift 4 && exec "$@"',
          'bind',
          source,
          alias,
          partSource,
          partAlias,
          STATECRAFT_BIN,
          ...args,
        ];
  const [file = STATECRAFT_BIN, ...rest] = command;
  const ran = await execa(file, rest, {
    env: statecraftEnvironment(home, env),
    extendEnv: false,
    reject: false,
    timeout: 60_000,
  });
  return { args, exitCode: ran.exitCode ?? -1, stdout: String(ran.stdout), stderr: String(ran.stderr) };
}

interface Account {
  posture: {
    boundary: { mechanism: string; profile?: { hidden: { path: string; role: string }[] }; probe?: { check: string; held: boolean; detail: string }[] };
  };
  records: { chain: string };
  artifacts: { stream: { path: string } | 'not-recorded' };
}

interface Move {
  move: string;
  argument: string;
  succeeded: boolean;
  error?: string;
  bytes?: number;
}

describe('another mount reaching the product home (R12)', () => {
  it('is hidden and probed as the home is: the chain cannot be read through a bind mount of its parent, nor of a part of it', async () => {
    how = await mountAliases();
    const repository = await createSampleRepository();
    try {
      const first = await statecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json']);
      expect(first.exitCode, first.stderr).toBe(0);
      const chain = parseJson<Account>(first).records.chain;
      expect(chain.startsWith(`${home}/targets/`)).toBe(true);
      const throughAlias = join(alias, 'home', chain.slice(home.length + 1));
      const throughPart = join(partAlias, chain.slice(`${home}/targets/`.length));
      const prompt = ['scenario: attack', `read: ${throughAlias}`, `read: ${throughPart}`].join('\n');

      // The control: without the boundary both reads reach the chain, so the mounts do expose it.
      const open = await statecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', prompt, '--json'], { STATECRAFT_BOUNDARY: 'none' });
      const openMoves = progressDetail(await readKeptEvents(parseJson<Account>(open)), 'attack')['attack'] as Move[];
      expect(openMoves.map((move) => [move.argument, move.succeeded])).toEqual([
        [throughAlias, true],
        [throughPart, true],
      ]);

      const ran = await statecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', prompt, '--json']);
      const account = parseJson<Account>(ran);
      const moves = progressDetail(await readKeptEvents(account), 'attack')['attack'] as Move[];
      expect(moves).toHaveLength(2);
      for (const move of moves) {
        expect(move.succeeded, `${move.argument} was read inside the boundary (${how})`).toBe(false);
        expect(['EACCES', 'ENOENT', 'EPERM']).toContain(move.error);
      }
      const boundary = account.posture.boundary;
      expect(boundary.mechanism).toBe('bwrap');
      expect(boundary.probe?.every((check) => check.held)).toBe(true);
      expect(boundary.profile?.hidden).toEqual(
        expect.arrayContaining([
          { path: join(alias, 'home'), role: 'product-home-view' },
          { path: partAlias, role: 'product-home-view' },
        ]),
      );
      // The probe read the canary through the whole view and tried the part.
      const byView = boundary.probe?.find((check) => check.check === 'canary-by-view');
      expect(byView?.detail).toContain(`cannot open ${join(alias, 'home')}/.statecraft-boundary-canary-`);
      expect(byView?.detail).toContain(`cannot enter ${partAlias}`);
      // The chain is whole: it verifies with every attempt in it.
      const list = await statecraft(['run', 'list', repository.path, '--json']);
      expect(list.exitCode).toBe(0);
      expect(parseJson<{ attempts: unknown[] }>(list).attempts).toHaveLength(3);
      expect((await readFile(chain, 'utf8')).length).toBeGreaterThan(0);
    } finally {
      await repository.remove();
    }
  });
});

describe('a product home that cannot be hidden (R12)', () => {
  it('is refused (exit 2) naming it and what hiding it would hide, when it holds the checkout', async () => {
    const holder = realpathSync(mkdtempSync(join(tmpdir(), 'statecraft-home-holding-')));
    try {
      const repository = join(holder, 'repository');
      await mkdir(repository);
      const git = (...args: string[]) => execa('git', ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid', ...args], { cwd: repository });
      await git('init', '--quiet', '--initial-branch=main');
      await git('commit', '--quiet', '--allow-empty', '-m', 'initial commit');
      const run = await runStatecraft(['run', repository, '--adapter', 'fixture', '--prompt', 'scenario: complete'], { home: holder });
      expect(run.exitCode).toBe(2);
      // Planning refuses it first, before any boundary is built (plan/home-outside-target.ts); the
      // boundary's own refusal stays for a view of the home that would hide the workspace.
      expect(run.stderr).toContain(`${repository}: the target is inside the product home ${holder}; keep repositories outside STATECRAFT_HOME`);
    } finally {
      await rm(holder, { recursive: true, force: true });
    }
  });
});

describe('the views of the product home, read from a mount table', () => {
  const table = [
    '27 1 254:0 / / rw,relatime - ext4 /dev/vda rw',
    '40 27 254:0 /srv/data /mnt/data rw - ext4 /dev/vda rw',
    '41 27 254:0 /srv/data/home/targets /mnt/part rw - ext4 /dev/vda rw',
    '42 27 254:0 /srv/other /mnt/other rw - ext4 /dev/vda rw',
    '43 27 0:40 / /tmp/small rw - tmpfs tmpfs rw',
    '44 27 254:0 / /mnt/with\\040space rw - ext4 /dev/vda rw',
  ].join('\n');

  it('names each other mount of the same device whose root is the home, a parent of it, or a part of it — and nothing else', () => {
    expect(productHomeViewsIn(table, '/srv/data/home', () => true)).toEqual([
      { path: '/mnt/data/home', reaches: 'whole' },
      { path: '/mnt/part', reaches: 'part' },
      { path: '/mnt/with space/srv/data/home', reaches: 'whole' },
    ]);
  });

  it('reads the home through the mount holding it (the longest mount point), and leaves out views that do not exist', () => {
    expect(productHomeViewsIn(table, '/mnt/data/home', (path) => path !== '/mnt/with space/srv/data/home')).toEqual([
      { path: '/srv/data/home', reaches: 'whole' },
      { path: '/mnt/part', reaches: 'part' },
    ]);
    expect(productHomeViewsIn(table, '/tmp/small/home', () => true)).toEqual([]);
  });
});
