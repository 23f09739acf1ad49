import { execFile } from 'node:child_process';
import { copyFile, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';

const run = promisify(execFile);
const scratch = scratchDirectories();
const CLI = fileURLToPath(new URL('../../../packages/cli/', import.meta.url));

/** A copy of the built CLI (its bin, bundle and package.json) in a scratch directory, without a code cache. */
async function copyOfTheCli(): Promise<{ bin: string; bundle: string; cache: string; home: string }> {
  const root = await scratch.make('statecraft-code-cache-');
  await mkdir(join(root, 'cli', 'bin'), { recursive: true });
  await mkdir(join(root, 'cli', 'dist', 'bundle'), { recursive: true });
  await mkdir(join(root, 'home'));
  const bin = join(root, 'cli', 'bin', 'statecraft.cjs');
  const bundle = join(root, 'cli', 'dist', 'bundle', 'statecraft.cjs');
  await copyFile(join(CLI, 'bin', 'statecraft.cjs'), bin);
  await copyFile(join(CLI, 'package.json'), join(root, 'cli', 'package.json'));
  await copyFile(join(CLI, 'dist', 'bundle', 'statecraft.cjs'), bundle);
  return { bin, bundle, cache: `${bundle}.v8-cache`, home: join(root, 'home') };
}

describe("the CLI's V8 code cache never changes what runs", () => {
  it("is keyed by the bundle's bytes: a bundle edited to the same length runs as edited, not as the cached bytecode of the one before", async () => {
    const cli = await copyOfTheCli();
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', STATECRAFT_HOME: cli.home };
    // A verb that ends normally writes the cache beside the bundle, as an operator's first start does.
    await run(process.execPath, [cli.bin, 'doctor', '--json'], { env });
    expect((await stat(cli.cache)).size).toBeGreaterThan(0);

    const original = await readFile(cli.bundle, 'utf8');
    const edited = original.replace('Supervise coding agents', 'Xupervise coding agents');
    expect(edited.length).toBe(original.length);
    await writeFile(cli.bundle, edited);
    // V8 checks cached data against a source only by its length: unkeyed, the old bytecode (and its help text) would run.
    const help = await run(process.execPath, [cli.bin, '--help'], { env });
    expect(help.stdout).toContain('Xupervise coding agents');
  });
});
