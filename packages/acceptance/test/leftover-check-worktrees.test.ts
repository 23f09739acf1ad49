import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CHECKS_DIRECTORY, makeCandidateWorktree, ownerFileOf } from '../src/judge/candidate-worktree.js';
import { makeCheckTemporaryDirectory } from '../src/judge/check-temporary-directory.js';
import { removeLeftoverCheckWorktrees } from '../src/judge/leftover-check-worktrees.js';

const made: string[] = [];
afterEach(() => {
  for (const path of made.splice(0)) rmSync(path, { recursive: true, force: true });
});

function repository(): { path: string; head: string; git: (...args: string[]) => string } {
  const path = realpathSync(mkdtempSync(join(tmpdir(), 'statecraft-leftovers-')));
  made.push(path);
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@invalid', ...args], { cwd: path, encoding: 'utf8' }).trim();
  git('init', '--quiet');
  writeFileSync(join(path, 'README.md'), '# leftovers\n');
  git('add', '-A');
  git('commit', '--quiet', '-m', 'initial');
  return { path, head: git('rev-parse', 'HEAD'), git };
}

/** A pid that was this host's and is certainly gone: a child that has exited and been reaped. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('check worktrees a killed judge left behind', () => {
  it("are removed with their checks' TMPDIRs when their owner is dead or unknown, and a live owner's are left alone; git forgets the removed ones", async () => {
    const target = repository();
    const live = await makeCandidateWorktree(target.path, 'run-live', 1, target.head);
    const dead = await makeCandidateWorktree(target.path, 'run-dead', 1, target.head);
    if (live.kind !== 'made' || dead.kind !== 'made') throw new Error('worktrees not made');
    const owner = JSON.parse(readFileSync(ownerFileOf(dead.path), 'utf8')) as Record<string, unknown>;
    writeFileSync(ownerFileOf(dead.path), JSON.stringify({ ...owner, pid: deadPid() }));
    // One with no owner file at all, as a judge killed between the two steps, or an older build, leaves.
    const unowned = join(target.path, CHECKS_DIRECTORY, 'run-unowned-1-00000000');
    target.git('worktree', 'add', '--detach', '--quiet', unowned, target.head);
    const temporary = {
      live: makeCheckTemporaryDirectory(live.path),
      dead: makeCheckTemporaryDirectory(dead.path),
      unowned: makeCheckTemporaryDirectory(unowned),
    };
    made.push(...Object.values(temporary));

    const removed = await removeLeftoverCheckWorktrees(target.path, CHECKS_DIRECTORY);

    expect(removed.sort()).toEqual([dead.path, unowned].sort());
    expect(existsSync(live.path)).toBe(true);
    expect(existsSync(ownerFileOf(live.path))).toBe(true);
    expect(existsSync(dead.path) || existsSync(ownerFileOf(dead.path)) || existsSync(unowned)).toBe(false);
    expect(existsSync(temporary.live)).toBe(true);
    expect(existsSync(temporary.dead) || existsSync(temporary.unowned)).toBe(false);
    const listed = target.git('worktree', 'list', '--porcelain');
    expect(listed).toContain(live.path);
    expect(listed).not.toContain(dead.path);
    expect(listed).not.toContain(unowned);
  });

  it('leaves alone what a judge does not make there: an entry of another name, and a link or a file of a worktree’s name (never followed)', async () => {
    const target = repository();
    const checks = join(target.path, CHECKS_DIRECTORY);
    mkdirSync(checks, { recursive: true });
    const outside = realpathSync(mkdtempSync(join(tmpdir(), 'statecraft-leftovers-outside-')));
    made.push(outside);
    writeFileSync(join(outside, 'kept.txt'), 'not the judge’s\n');
    writeFileSync(join(checks, 'notes.txt'), 'a file a commit put here\n');
    symlinkSync(outside, join(checks, 'run-linked-1-0000abcd'));
    writeFileSync(join(checks, 'run-file-1-0000abcd'), 'a file of a worktree’s name\n');

    const removed = await removeLeftoverCheckWorktrees(target.path, CHECKS_DIRECTORY);

    expect(removed).toEqual([]);
    expect(readdirSync(checks).sort()).toEqual(['notes.txt', 'run-file-1-0000abcd', 'run-linked-1-0000abcd']);
    expect(readFileSync(join(outside, 'kept.txt'), 'utf8')).toBe('not the judge’s\n');
  });
});
