import { lstat, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { dir } from 'tmp-promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// `run show --html` as a command line: what each combination of its options does, and how a fault
// is said. The page itself is tested in a browser (reviewer-page.test.ts).

const targets = useTestTargets();
const home = () => ({ home: targets.home.path });
let runId: string;
let scratch: { path: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  scratch = await dir({ unsafeCleanup: true, prefix: 'statecraft-page-options' });
  const run = await runStatecraft(['run', targets.repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], home());
  runId = parseJson<{ runId: string }>(run).runId;
});
afterAll(async () => scratch?.cleanup());

describe('run show --html: its options and faults', () => {
  it('-o without --html is a usage error (exit 3), and writes nothing', async () => {
    const shown = await runStatecraft(['run', 'show', targets.repository.path, runId, '-o', join(scratch.path, 'idle.html')], home());
    expect(shown.exitCode).toBe(3);
    expect(shown.stderr).toContain('-o applies only with --html');
    expect(await readdir(scratch.path)).toEqual([]);
  });

  it('-o - with --json is a usage error (exit 3): stdout cannot hold both', async () => {
    const shown = await runStatecraft(['run', 'show', targets.repository.path, runId, '--html', '-o', '-', '--json'], home());
    expect(shown.exitCode).toBe(3);
    expect(parseJson<{ usage: { message: string } }>(shown).usage.message).toContain('-o - writes the page to stdout');
  });

  it('a page that cannot be written fails (exit 4) naming the path, and leaves no partial file', async () => {
    const missing = join(scratch.path, 'no-such-directory', 'page.html');
    const shown = await runStatecraft(['run', 'show', targets.repository.path, runId, '--html', '-o', missing], home());
    expect(shown.exitCode).toBe(4);
    expect(shown.stderr).toContain(missing);
    const blocked = join(scratch.path, 'a-directory');
    await mkdir(blocked);
    const over = await runStatecraft(['run', 'show', targets.repository.path, runId, '--html', '-o', blocked], home());
    expect(over.exitCode).toBe(4);
    expect(over.stderr).toContain(blocked);
    expect(await readdir(scratch.path)).toEqual(['a-directory']);
    expect(await readdir(blocked)).toEqual([]);
  });

  it('-o under a file, or naming something other than a file, fails (exit 4) naming the path given, and leaves what is there as it was', async () => {
    const place = join(scratch.path, 'not-pages');
    await mkdir(place);
    const file = join(place, 'a-file');
    await writeFile(file, 'not a directory\n');
    const under = join(file, 'page.html');
    const shown = await runStatecraft(['run', 'show', targets.repository.path, runId, '--html', '-o', under], home());
    expect(shown.exitCode, shown.stderr).toBe(4);
    // Not the temporary name beside it, which was never made.
    expect(shown.stderr.startsWith(`statecraft: ${under}: `), shown.stderr).toBe(true);
    // A page is renamed into place: over a pipe, a link or (as root) a device, it would take its place.
    const fifo = join(place, 'a-fifo');
    await execa('mkfifo', [fifo]);
    const link = join(place, 'a-link');
    await symlink(file, link);
    for (const [path, kind] of [
      [fifo, (info: Awaited<ReturnType<typeof lstat>>) => info.isFIFO()],
      [link, (info: Awaited<ReturnType<typeof lstat>>) => info.isSymbolicLink()],
    ] as const) {
      const over = await runStatecraft(['run', 'show', targets.repository.path, runId, '--html', '-o', path], home());
      expect(over.exitCode, over.stderr).toBe(4);
      expect(over.stderr).toContain(`statecraft: ${path}: cannot write the page: something other than a file is there`);
      expect(kind(await lstat(path))).toBe(true);
    }
    expect(await readFile(file, 'utf8')).toBe('not a directory\n');
    expect((await readdir(place)).sort()).toEqual(['a-fifo', 'a-file', 'a-link']);
  });

  it('an unknown run is refused (exit 2) as run show refuses it, and no page is written', async () => {
    const shown = await runStatecraft(
      ['run', 'show', targets.repository.path, '20200101T000000Z-000000', '--html', '-o', join(scratch.path, 'x.html')],
      home(),
    );
    expect(shown.exitCode).toBe(2);
    expect(shown.stderr).toContain('has no record');
    await expect(readFile(join(scratch.path, 'x.html'))).rejects.toThrow('ENOENT');
  });

  it('a second page into the same path replaces the first, byte for byte the same for the same records', async () => {
    const path = join(scratch.path, 'twice.html');
    const first = await runStatecraft(['run', 'show', targets.repository.path, runId, '--html', '-o', path], home());
    expect(first.exitCode).toBe(0);
    expect(first.stdout).toContain(path);
    const bytes = await readFile(path);
    const second = await runStatecraft(['run', 'show', targets.repository.path, runId, '--html', '-o', path, '--json'], home());
    expect(parseJson<{ page: { path: string; bytes: number } }>(second).page).toEqual({ path, bytes: bytes.length });
    expect(await readFile(path)).toEqual(bytes);
    expect((await readdir(scratch.path)).filter((name) => name.startsWith('twice'))).toEqual(['twice.html']);
  });
});
