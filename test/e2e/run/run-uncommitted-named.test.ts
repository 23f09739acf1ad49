import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// Issue 30 item 3, through the built CLI: an attempt starts from a commit, so what the checkout holds
// beyond it — staged, unstaged, untracked and not ignored — is not part of it. `run` says so at the
// start, on stderr, naming the first few; `run --json` carries the count and the paths.

const targets = useTestTargets({ sharedRepository: false });

interface RunJson {
  runId: string;
  outcome: string;
  uncommitted?: { count: number; paths: string[] };
}

const run = (target: string, ...extra: string[]) =>
  runStatecraft(['run', target, '--adapter', 'fixture', '--prompt', 'scenario: complete', ...extra], { home: targets.home.path });

const NOTE = /^the attempt starts from HEAD; (\d+) uncommitted paths? (?:is|are) not part of it$/m;

describe('uncommitted changes in the checkout are named at the start of a run', () => {
  it('staged, unstaged, renamed and untracked paths are named and counted; an ignored one is not', async () => {
    const repository = await targets.fresh({ 'README.md': '# sample\n', 'old-name.txt': 'moved\n', '.gitignore': 'build/\n' });
    await writeFile(join(repository.path, 'README.md'), '# sample, edited\n');
    await writeFile(join(repository.path, 'staged.txt'), 'staged\n');
    await repository.git('add', 'staged.txt');
    await repository.git('mv', 'old-name.txt', 'new-name.txt');
    await writeFile(join(repository.path, 'untracked.txt'), 'new\n');
    await mkdir(join(repository.path, 'build'));
    await writeFile(join(repository.path, 'build', 'ignored.o'), '');
    const text = await run(repository.path);
    expect(text.exitCode, text.stderr).toBe(0);
    expect(NOTE.exec(text.stderr)?.[1]).toBe('4');
    expect(text.stderr).toMatch(/^ {2}(README\.md|staged\.txt|new-name\.txt|untracked\.txt)$/m);
    expect(text.stderr).toMatch(/^ {2}and 1 more$/m);
    expect(text.stderr).not.toContain('ignored.o');
    expect(text.stdout).not.toMatch(NOTE);
    for (const line of text.stderr.trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    const json = await run(repository.path, '--json');
    const value = parseJson<RunJson>(json);
    expect(value.uncommitted?.count).toBe(4);
    expect([...(value.uncommitted?.paths ?? [])].sort()).toEqual(['README.md', 'new-name.txt', 'staged.txt', 'untracked.txt']);
    // Not part of the attempt: the workspace holds the commit, not the edits.
    expect(value.outcome).toBe('completed');
  });

  it('a clean checkout: nothing said, a count of 0', async () => {
    const repository = await targets.fresh();
    const text = await run(repository.path);
    expect(text.exitCode).toBe(0);
    expect(text.stderr).not.toMatch(/uncommitted/);
    expect(parseJson<RunJson>(await run(repository.path, '--json')).uncommitted).toEqual({ count: 0, paths: [] });
  });

  it('one path is said in the singular; a name with a line break or escape stays on its line, inert', async () => {
    const repository = await targets.fresh();
    await writeFile(join(repository.path, 'evil\n\u001b[2Jname'), '');
    const text = await run(repository.path);
    expect(text.stderr).toMatch(/^the attempt starts from HEAD; 1 uncommitted path is not part of it$/m);
    expect(text.stderr).not.toContain('\u001b');
    expect(text.stderr.trimEnd().split('\n')).toHaveLength(2);
  });

  it("a retry starts in its run's workspace: the checkout is not read for it", async () => {
    const repository = await targets.fresh();
    const first = parseJson<RunJson>(await run(repository.path, '--json'));
    await rename(join(repository.path, 'README.md'), join(repository.path, 'README.txt'));
    const retried = await runStatecraft(['run', repository.path, '--retry', first.runId, '--json'], { home: targets.home.path });
    expect(retried.stderr).not.toMatch(/uncommitted/);
    expect(parseJson<RunJson>(retried).uncommitted).toBeUndefined();
  });
});
