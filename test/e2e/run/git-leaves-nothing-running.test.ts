import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { useTestTargets, type SampleRepository } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// Nothing of a verb runs after it returns: no git statecraft starts leaves work behind. A commit
// runs `git maintenance run --auto`, whose `gc --auto` detaches and repacks the operator's
// repository; a repository whose own configuration says `gc.auto=1` (an operator's, or what an
// agent could leave) makes every commit do it once a few loose objects are there.

const targets = useTestTargets({ sharedRepository: false });

/**
 * Git decides `gc --auto` by the loose objects in `objects/17` (its threshold over 256): with
 * `gc.auto=1`, two there are enough. Blobs whose ids start with 17, found by hashing as git does.
 */
function blobsUnder17(count: number): string[] {
  const found: string[] = [];
  for (let index = 0; found.length < count; index += 1) {
    const text = `loose ${index}\n`;
    const id = createHash('sha1')
      .update(`blob ${Buffer.byteLength(text)}\0${text}`)
      .digest('hex');
    if (id.startsWith('17')) found.push(text);
  }
  return found;
}

/** The repository set up as the operator's could be: `gc.auto=1`, maintenance on, and loose objects enough to start gc. */
async function repositoryThatWouldRepack(repository: SampleRepository): Promise<void> {
  await repository.git('config', 'gc.auto', '1');
  await repository.git('config', 'maintenance.auto', 'true');
  await repository.git('config', 'maintenance.strategy', 'incremental');
  for (const text of blobsUnder17(3)) await execa('git', ['hash-object', '-w', '--stdin'], { cwd: repository.path, input: text });
  expect((await readdir(join(repository.path, '.git', 'objects', '17'))).length).toBeGreaterThanOrEqual(3);
}

/** Processes whose working directory lies in the repository (a detached gc works in its git directory). */
async function processesIn(repository: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of (await readdir('/proc')).filter((name) => /^[0-9]+$/.test(name))) {
    const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => undefined);
    if (cwd === undefined || (cwd !== repository && !cwd.startsWith(`${repository}/`))) continue;
    const command = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    found.push(`${pid}: ${command.split('\0').join(' ').trim()}`);
  }
  return found;
}

/** What a gc leaves: a pack, its pid file or its log. Looked for a while, since a detached gc runs on after the verb. */
async function gcTraces(repository: string): Promise<string[]> {
  const gitDirectory = join(repository, '.git');
  const traces = async (): Promise<string[]> => [
    ...(await readdir(join(gitDirectory, 'objects', 'pack')).catch(() => [] as string[])).filter((name) => name.endsWith('.pack')),
    ...['gc.pid', 'gc.log'].filter((name) => existsSync(join(gitDirectory, name))),
  ];
  for (let waited = 0; waited < 3_000; waited += 100) {
    const found = await traces();
    if (found.length > 0) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return traces();
}

describe('no git statecraft runs outlives the verb (gc.auto=0, maintenance.auto=false on every git)', () => {
  it('run: the candidate commit of a repository set to gc.auto=1 starts no gc; no process is left in the repository', async () => {
    const repository = await targets.fresh();
    await repositoryThatWouldRepack(repository);
    const run = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', 'answer.txt', '42'), '--json'], {
      home: targets.home.path,
    });
    expect(run.exitCode, run.stderr).toBe(0);
    // statecraft made the candidate commit itself: the commit that runs auto maintenance.
    expect(parseJson<{ candidate: { madeBy: string } }>(run).candidate.madeBy).toBe('statecraft');
    expect(await processesIn(repository.path)).toEqual([]);
    expect(await gcTraces(repository.path)).toEqual([]);
  });

  it('run then accept: judging adds and removes a worktree, starts no gc, and leaves no process in the repository', async () => {
    const repository = await repositoryWithSuite(targets, { checks: ['true'] });
    await repositoryThatWouldRepack(repository);
    const run = await runStatecraft(
      ['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', 'answer.txt', '42'), '--accept', '--json'],
      {
        home: targets.home.path,
        timeoutMs: 120_000,
      },
    );
    expect(run.exitCode, run.stderr).toBe(0);
    expect(await processesIn(repository.path)).toEqual([]);
    expect(await gcTraces(repository.path)).toEqual([]);
    const runId = parseJson<{ runId: string }>(run).runId;
    const retry = await runStatecraft(
      ['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', 'more.txt', '43'), '--retry', runId, '--json'],
      {
        home: targets.home.path,
      },
    );
    expect(retry.exitCode, retry.stderr).toBe(0);
    const accepted = await runStatecraft(['accept', repository.path, runId, '--json'], { home: targets.home.path, timeoutMs: 120_000 });
    expect(accepted.exitCode, accepted.stderr).toBe(0);
    expect(await processesIn(repository.path)).toEqual([]);
    expect(await gcTraces(repository.path)).toEqual([]);
  });
});

/** Every source file of the product, under packages/<name>/src. */
async function productSources(): Promise<string[]> {
  const root = join(import.meta.dirname, '..', '..', '..', 'packages');
  const files: string[] = [];
  const walk = async (directory: string): Promise<void> => {
    for (const entry of await readdir(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (/\.(ts|mts|cts|js|mjs|cjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(path);
    }
  };
  for (const name of await readdir(root)) {
    if (existsSync(join(root, name, 'src'))) await walk(join(root, name, 'src'));
  }
  return files;
}

describe('every git the product runs is started in one place', () => {
  it("no source but packages/records/src/git/git-process.ts spawns 'git' (spawn, execFile, execa, exec … with git as the program)", async () => {
    const spawning = /\b(?:spawn|spawnSync|execFile|execFileSync|execa|execaSync|exec|execSync|fork)\s*\(\s*['"`]git\b/;
    const elsewhere: string[] = [];
    for (const file of await productSources()) {
      if (file.endsWith(join('packages', 'records', 'src', 'git', 'git-process.ts'))) continue;
      if (spawning.test(await readFile(file, 'utf8'))) elsewhere.push(file);
    }
    expect(elsewhere).toEqual([]);
    expect(spawning.test(await readFile(join(import.meta.dirname, '..', '..', '..', 'packages', 'records', 'src', 'git', 'git-process.ts'), 'utf8'))).toBe(
      true,
    );
  });
});
