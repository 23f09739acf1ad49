import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { countingGit } from '../../fixtures/counting-git.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

const targets = useTestTargets();
const scratch = scratchDirectories();

// Each git process is paid on every run (the time `run` adds): the candidate of a completed
// attempt (R13.2) is read from one status, and the head recorded beside it comes from that same
// status when the tree is clean — nothing can have moved it in between.
describe('a completed attempt reads its workspace with as few git processes as its records need (R13.2)', () => {
  it('an attempt that left its tree clean runs git status once: the head and cleanliness come from the candidate status', async () => {
    // Each git logged with the directory it ran in: the workspace's, and the checkout's own.
    const git = await countingGit(scratch, '"$(pwd -P): $*"');
    const run = await runStatecraft(['run', targets.repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], {
      home: targets.home.path,
      env: { PATH: `${git.bin}:${process.env.PATH ?? '/usr/bin:/bin'}` },
    });
    const account = parseJson<{
      outcome: string;
      workspace: string;
      headCommit: string;
      workspaceDirty: boolean;
      candidate: { commit: string; madeBy: string };
    }>(run);
    expect(account.outcome).toBe('completed');
    // It changed nothing: the candidate is the base it started at, and nobody made it during the attempt (R13.2).
    expect(account.candidate.madeBy).toBe('earlier');
    expect(account.headCommit).toBe(account.candidate.commit);
    expect(account.workspaceDirty).toBe(false);
    const statuses = (await readFile(git.log, 'utf8')).split('\n').filter((line) => / status /.test(` ${line} `));
    expect(statuses.filter((line) => line.startsWith(`${account.workspace}: `))).toHaveLength(1);
    // And the checkout itself once, at the start: what it holds that is not committed (run-uncommitted-named.test.ts).
    expect(statuses.filter((line) => line.startsWith(`${targets.repository.path}: `))).toHaveLength(1);
    expect(statuses).toHaveLength(2);
  });

  it('a new workspace is added and checked out by one git process, and a clean tree still on its base asks git for no diff', async () => {
    const git = await countingGit(scratch);
    const run = await runStatecraft(['run', targets.repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], {
      home: targets.home.path,
      env: { PATH: `${git.bin}:${process.env.PATH ?? '/usr/bin:/bin'}` },
    });
    const account = parseJson<{ outcome: string; baseCommit: string; workspace: string; candidate: { commit: string; changedPaths: string[] } }>(run);
    expect(account.outcome).toBe('completed');
    expect(account.candidate.commit).toBe(account.baseCommit);
    expect(account.candidate.changedPaths).toEqual([]);
    // The checkout is git's own (`worktree add` runs its `reset --hard` as a child of git, not from PATH).
    expect(await readFile(join(account.workspace, 'README.md'), 'utf8')).toBe(await readFile(join(targets.repository.path, 'README.md'), 'utf8'));
    const invocations = (await readFile(git.log, 'utf8')).split('\n').map((line) => ` ${line} `);
    expect(invocations.filter((line) => / worktree add /.test(line))).toHaveLength(1);
    expect(invocations.filter((line) => / reset /.test(line))).toEqual([]);
    expect(invocations.filter((line) => / diff /.test(line))).toEqual([]);
  });

  it("a clean tree still on its base records the base's tree, read with the base at planning: no git asks for the head's ids", async () => {
    const git = await countingGit(scratch);
    const run = await runStatecraft(['run', targets.repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], {
      home: targets.home.path,
      env: { PATH: `${git.bin}:${process.env.PATH ?? '/usr/bin:/bin'}` },
    });
    const account = parseJson<{ outcome: string; baseCommit: string; candidate: { commit: string; tree: string } }>(run);
    expect(account.outcome).toBe('completed');
    expect(account.candidate.commit).toBe(account.baseCommit);
    expect(account.candidate.tree).toBe((await execa('git', ['rev-parse', `${account.baseCommit}^{tree}`], { cwd: targets.repository.path })).stdout);
    const invocations = (await readFile(git.log, 'utf8')).split('\n').map((line) => ` ${line} `);
    expect(invocations.filter((line) => / rev-parse HEAD /.test(line))).toEqual([]);
  });

  // Without the boundary: inside it the repository's git directory is read-only, and an agent cannot commit (R12).
  it("an attempt whose agent committed on its own asks for the head's ids after the status, and records the new commit's tree", async () => {
    const git = await countingGit(scratch);
    const run = await runStatecraft(
      [
        'run',
        targets.repository.path,
        '--adapter',
        'fixture',
        '--prompt',
        'scenario: write-commit\npath: answer.txt\ntext: 42',
        '--boundary',
        'none',
        '--json',
      ],
      { home: targets.home.path, env: { PATH: `${git.bin}:${process.env.PATH ?? '/usr/bin:/bin'}` } },
    );
    const account = parseJson<{ outcome: string; baseCommit: string; workspace: string; candidate: { commit: string; tree: string; madeBy: string } }>(run);
    expect(account.outcome).toBe('completed');
    expect(account.candidate.madeBy).toBe('agent');
    expect(account.candidate.commit).not.toBe(account.baseCommit);
    expect(account.candidate.tree).toBe((await execa('git', ['rev-parse', `${account.candidate.commit}^{tree}`], { cwd: targets.repository.path })).stdout);
  });

  it('an attempt that left its tree dirty still records the head of the commit statecraft made, read after it', async () => {
    const git = await countingGit(scratch);
    const run = await runStatecraft(
      ['run', targets.repository.path, '--adapter', 'fixture', '--prompt', 'scenario: write\npath: answer.txt\ntext: 42', '--json'],
      { home: targets.home.path, env: { PATH: `${git.bin}:${process.env.PATH ?? '/usr/bin:/bin'}` } },
    );
    const account = parseJson<{ outcome: string; headCommit: string; workspaceDirty: boolean; candidate: { commit: string; madeBy: string } }>(run);
    expect(account.outcome).toBe('completed');
    expect(account.candidate.madeBy).toBe('statecraft');
    expect(account.headCommit).toBe(account.candidate.commit);
    expect(account.workspaceDirty).toBe(false);
  });
});
