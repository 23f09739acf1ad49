import { execFile } from 'node:child_process';
import { copyFile, mkdir, realpath, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createSampleRepository } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';

// bin/statecraft starts node from the V8 startup snapshot the build made (packages/cli/scripts/
// snapshot-builder.cjs) only while its key still names this node, this bundle and this path;
// otherwise it runs bin/statecraft.cjs (the code-cached bundle). Which of the two ran is read from
// the shell's own trace (`sh -x`), the command line it finally executes.
const run = promisify(execFile);
const scratch = scratchDirectories();
const CLI = fileURLToPath(new URL('../../../packages/cli/', import.meta.url));
const BIN = join(CLI, 'bin', 'statecraft');

interface Started {
  /** The command bin/statecraft executed, as the shell traced it. */
  executed: string;
  /** Every command the shell traced. */
  trace: string[];
  stdout: string;
  exitCode: number;
}

async function start(bin: string, args: readonly string[], env: Record<string, string>): Promise<Started> {
  const ended = await run('/bin/sh', ['-x', bin, ...args], { env }).catch((error: { code: number; stdout: string; stderr: string }) => error);
  const stderr = 'stderr' in ended ? ended.stderr : '';
  const executed = stderr.split('\n').filter((line) => line.startsWith('+ exec '));
  if (executed.length !== 1) throw new Error(`bin/statecraft traced no single exec:\n${stderr}`);
  return { executed: executed[0] ?? '', trace: stderr.split('\n'), stdout: ended.stdout, exitCode: 'code' in ended ? ended.code : 0 };
}

const fromSnapshot = (started: Started) => started.executed.includes('--snapshot-blob');

/** A copy of the built CLI in a scratch directory: its two bins, package.json, bundle, code cache, snapshot and key. */
async function copyOfTheCli(): Promise<{ bin: string; bundle: string; key: string; home: string }> {
  const root = await realpath(await scratch.make('statecraft-snapshot-'));
  await mkdir(join(root, 'cli', 'bin'), { recursive: true });
  await mkdir(join(root, 'cli', 'dist', 'bundle'), { recursive: true });
  await mkdir(join(root, 'home'));
  for (const file of ['bin/statecraft', 'bin/statecraft.cjs', 'package.json']) await copyFile(join(CLI, file), join(root, 'cli', file));
  for (const file of ['statecraft.cjs', 'statecraft.cjs.v8-cache', 'statecraft.snapshot', 'statecraft.snapshot.key']) {
    await copyFile(join(CLI, 'dist', 'bundle', file), join(root, 'cli', 'dist', 'bundle', file));
  }
  const bundle = join(root, 'cli', 'dist', 'bundle', 'statecraft.cjs');
  return { bin: join(root, 'cli', 'bin', 'statecraft'), bundle, key: join(root, 'cli', 'dist', 'bundle', 'statecraft.snapshot.key'), home: join(root, 'home') };
}

/** The key the build would write for this bundle and the node on the PATH (packages/cli/scripts/bundle.mjs). */
async function keyFor(bundle: string): Promise<string> {
  const { stdout: node } = await run('/bin/sh', ['-c', 'command -v node']);
  const { stdout: identity } = await run('stat', ['-L', '--printf=%d:%i:%s:%.9Y:%.9Z ', '--', node.trim(), bundle]);
  return `${bundle} ${identity}\n`;
}

describe("bin/statecraft starts from the build's startup snapshot only while it is the snapshot of this node and this bundle", () => {
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };

  it('starts the built CLI from its snapshot, which answers exactly as the code-cached bundle does', async () => {
    const home = await scratch.make('statecraft-snapshot-home-');
    const snapshot = await start(BIN, ['run', '--help'], { ...env, STATECRAFT_HOME: home });
    expect(fromSnapshot(snapshot)).toBe(true);
    const codeCached = await run(process.execPath, [join(CLI, 'bin', 'statecraft.cjs'), 'run', '--help'], { env: { ...env, STATECRAFT_HOME: home } });
    expect(snapshot.stdout).toBe(codeCached.stdout);
    expect(snapshot.exitCode).toBe(0);
    // A usage error, with --json: the same words, the same exit code (3), whichever start.
    const usage = await start(BIN, ['nonsense', '--json'], { ...env, STATECRAFT_HOME: home });
    expect(fromSnapshot(usage)).toBe(true);
    expect(usage.exitCode).toBe(3);
    expect(JSON.parse(usage.stdout)).toEqual({ usage: { message: "unknown command 'nonsense'" } });
  });

  it('reads the environment, the working directory and the terminal of the start, not of the build', async () => {
    const home = await scratch.make('statecraft-snapshot-home-');
    const repository = await createSampleRepository();
    scratch.keep(repository);
    // A relative target (the start's working directory) and a product home named only at the start.
    const started = await run('script', ['-qec', `${BIN} run . --adapter fixture --prompt 'scenario: complete'`, '/dev/null'], {
      cwd: repository.path,
      env: { ...env, STATECRAFT_HOME: home },
    });
    // The live status line is drawn only on a terminal (its erase-line sequence): the snapshot's
    // stdout is the one node opened at this start, a terminal here, not the build's pipe.
    expect(started.stdout).toContain('\x1b[2K');
    expect(started.stdout).toContain('completed');
    const listed = await run(BIN, ['run', 'list', repository.path, '--json'], { env: { ...env, STATECRAFT_HOME: home } });
    expect((JSON.parse(listed.stdout) as { attempts: unknown[] }).attempts).toHaveLength(1);
  });

  it('falls back to the code-cached bundle when the install moved, the bundle changed, or NODE_OPTIONS is set', async () => {
    const cli = await copyOfTheCli();
    const cliEnv = { ...env, STATECRAFT_HOME: cli.home };
    // Another path than the one the key names: the snapshot's bundle path would be the old one.
    const moved = await start(cli.bin, ['doctor', '--json'], cliEnv);
    expect(fromSnapshot(moved)).toBe(false);
    expect(moved.executed).toContain(`${cli.bin}.cjs doctor --json`);
    expect(moved.exitCode).toBe(0);

    // The key the build would have written here: now the copy starts from its snapshot ...
    await writeFile(cli.key, await keyFor(cli.bundle));
    const keyed = await start(cli.bin, ['doctor', '--json'], cliEnv);
    expect(fromSnapshot(keyed)).toBe(true);
    expect(keyed.exitCode).toBe(0);
    expect(JSON.parse(keyed.stdout)).toEqual(JSON.parse(moved.stdout));

    // ... but not under NODE_OPTIONS (node refuses a snapshot when V8's flags differ: exit 14) ...
    const withOptions = await start(cli.bin, ['doctor', '--json'], { ...cliEnv, NODE_OPTIONS: '--max-old-space-size=300' });
    expect(fromSnapshot(withOptions)).toBe(false);
    expect(withOptions.exitCode).toBe(0);

    // ... and not once the bundle is touched (its times are in the key): the snapshot is of the old one.
    await utimes(cli.bundle, new Date(), new Date());
    const touched = await start(cli.bin, ['doctor', '--json'], cliEnv);
    expect(fromSnapshot(touched)).toBe(false);
    expect(touched.exitCode).toBe(0);
  });

  it('starts from the snapshot through a link, as npm installs it; from its own path, with no process but stat before node', async () => {
    const home = await scratch.make('statecraft-snapshot-home-');
    const bin = await scratch.make('statecraft-snapshot-bin-');
    await symlink(BIN, join(bin, 'statecraft'));
    const linked = await start(join(bin, 'statecraft'), ['run', '--help'], { ...env, STATECRAFT_HOME: home });
    expect(fromSnapshot(linked)).toBe(true);
    expect(linked.trace.some((line) => line.startsWith('+ readlink '))).toBe(true);
    // Its own absolute path needs no readlink, and node is found on PATH with built-ins: stat is the only command
    // (export and unset, for the malloc tunable, are the shell's own).
    const direct = await start(BIN, ['run', '--help'], { ...env, STATECRAFT_HOME: home });
    expect(fromSnapshot(direct)).toBe(true);
    const words = direct.trace.filter((line) => line.startsWith('+ ')).map((line) => line.split(' ')[1] ?? '');
    const commands = words.filter((word) => /^[a-z]/.test(word) && !word.includes('=') && !['set', 'break', 'exec', 'export', 'unset'].includes(word));
    expect(commands).toEqual(['stat']);
    expect(direct.stdout).toBe(linked.stdout);
  });

  it('answers a bare --version from package.json, without the bundle', async () => {
    const version = await start(BIN, ['--version'], env);
    expect(fromSnapshot(version)).toBe(false);
    expect(version.executed).toContain('statecraft.cjs --version');
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
