import { existsSync } from 'node:fs';
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// Issue 9 (d): before the intent, the workspace is made, the chain and coverage are read and the
// boundary is set up and probed all at once. When one of those steps fails, the attempt is refused
// naming it, and nothing any of the others made is left behind: no branch, no worktree, no
// TMPDIR, no lock, nothing appended (R8.4, R8.5, R8.6).

const targets = useTestTargets({ sharedRepository: false });
const scratch = scratchDirectories();

interface Refusal {
  refused: { stage: string; reason: string; message: string; detail: { path: string; reason: string } };
}

describe('a step that fails while the others run beside it leaves nothing behind (R8.6)', () => {
  it('a repository where git cannot make the worktree is refused (exit 2) naming it; no branch, TMPDIR, lock or record is left', async () => {
    const target = await targets.fresh();
    // `git worktree add` keeps its registrations under .git/worktrees: a file there stops it after
    // `-b` has made the branch, while every other step (rev-parse, ls-tree, the chain) still reads.
    await writeFile(join(target.path, '.git', 'worktrees'), 'not a directory\n');
    const temporary = await scratch.make('statecraft-run-tmpdir-');
    const run = await runStatecraft(['run', target.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], {
      home: targets.home.path,
      env: { TMPDIR: temporary },
    });

    expect(run.exitCode).toBe(2);
    const { refused } = parseJson<Refusal>(run);
    expect(refused).toMatchObject({ stage: 'launch', reason: 'workspace', detail: { reason: 'git-failed' } });
    expect(refused.message).toContain('git worktree add failed');
    expect(refused.message).toContain(join(target.path, '.statecraft', 'state', 'workspaces'));
    expect(run.stderr).not.toContain('unexpected');

    // The branch `-b` made is withdrawn with the worktree that was never made.
    expect(await target.git('branch', '--list', 'statecraft/*')).toBe('');
    const workspaces = join(target.path, '.statecraft', 'state', 'workspaces');
    expect(existsSync(workspaces) ? await readdir(workspaces) : []).toEqual([]);
    // No attempt TMPDIR is left (the boundary's setup, had it begun, made one there).
    expect(await readdir(temporary)).toEqual([]);
    // Nothing appended, and the lock is released: the same target runs once git can make worktrees.
    const list = await runStatecraft(['run', 'list', target.path, '--json'], { home: targets.home.path });
    expect(parseJson<{ attempts: unknown[] }>(list).attempts).toEqual([]);
    const homeTargets = await readdir(join(targets.home.path, 'targets')).catch(() => [] as string[]);
    for (const key of homeTargets) expect(existsSync(join(targets.home.path, 'targets', key, 'lock'))).toBe(false);

    await rm(join(target.path, '.git', 'worktrees'));
    const again = await runStatecraft(['run', target.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], {
      home: targets.home.path,
      env: { TMPDIR: temporary },
    });
    expect(again.exitCode).toBe(0);
    expect(parseJson<{ outcome: string }>(again).outcome).toBe('completed');
  });
});
