import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { landCandidate } from '../src/land/land-commit.js';

// A receipt minted before candidates holding statecraft's state directory failed (decision 0420),
// or carried in a bundle from such a statecraft, still names one: landing it puts a link where
// statecraft makes and removes worktrees. `land` refuses such a candidate, changing nothing.

const made: string[] = [];
afterEach(() => {
  for (const path of made.splice(0)) rmSync(path, { recursive: true, force: true });
});

function repository(): { path: string; git: (...args: string[]) => string } {
  const path = realpathSync(mkdtempSync(join(tmpdir(), 'statecraft-land-state-')));
  made.push(path);
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@invalid', ...args], { cwd: path, encoding: 'utf8' }).trim();
  git('init', '--quiet', '-b', 'main');
  writeFileSync(join(path, 'README.md'), '# land\n');
  git('add', '-A');
  git('commit', '--quiet', '-m', 'base');
  return { path, git };
}

/** A candidate on its own branch, made from the base by `change` in the checkout, which is then put back on main. */
function candidateOf(target: { path: string; git: (...args: string[]) => string }, change: () => void): string {
  target.git('checkout', '--quiet', '-b', 'candidate');
  change();
  target.git('add', '-A', '--force');
  target.git('commit', '--quiet', '-m', 'candidate');
  const commit = target.git('rev-parse', 'HEAD');
  target.git('checkout', '--quiet', 'main');
  return commit;
}

describe('land refuses a candidate that holds statecraft’s state directory', () => {
  const changes: { name: string; change: (path: string) => void }[] = [
    {
      name: 'a link in it',
      change: (path) => {
        mkdirSync(join(path, '.statecraft', 'state'), { recursive: true });
        symlinkSync('../..', join(path, '.statecraft', 'state', 'checks'));
      },
    },
    {
      name: 'the directory itself a link',
      change: (path) => {
        mkdirSync(join(path, '.statecraft'), { recursive: true });
        symlinkSync('..', join(path, '.statecraft', 'state'));
      },
    },
    {
      name: 'a file in it',
      change: (path) => {
        mkdirSync(join(path, '.statecraft', 'state', 'workspaces'), { recursive: true });
        writeFileSync(join(path, '.statecraft', 'state', 'workspaces', 'planted'), 'x\n');
      },
    },
  ];
  for (const { name, change } of changes) {
    for (const squash of [false, true]) {
      it(`${name}${squash ? ', squashed' : ''}: refused, the branch, index and work tree as they were`, async () => {
        const target = repository();
        const candidate = candidateOf(target, () => change(target.path));
        const before = target.git('rev-parse', 'HEAD');
        const answer = await landCandidate({ target: target.path, candidate, squash, message: 'land' });
        expect(answer).toMatchObject({ kind: 'refused', reason: 'state-directory' });
        expect(answer.kind === 'refused' && answer.message).toContain('.statecraft/state');
        expect(target.git('rev-parse', 'HEAD')).toBe(before);
        expect(target.git('status', '--porcelain', '--untracked-files=all', '--ignored')).toBe('');
      });
    }
  }

  it('a candidate that leaves the state directory alone lands', async () => {
    const target = repository();
    const candidate = candidateOf(target, () => writeFileSync(join(target.path, 'answer.txt'), 'forty-two\n'));
    const answer = await landCandidate({ target: target.path, candidate, squash: false, message: 'land' });
    expect(answer).toMatchObject({ kind: 'landed', method: 'fast-forward', commit: candidate });
  });
});
