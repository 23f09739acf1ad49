import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryWithSuite, runThenAccept } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';

// R13.3, R8.6: the check worktree is the judge's own, made for one judgement. Once accept returns,
// whatever the verdict and whatever a check did to the worktree, nothing of it is left: not its
// directory, not its owner file, not its registration in the repository's git directory (git
// would list it, and `git worktree prune` would have something to prune).

interface Acceptance {
  verdict: string;
  reason: string;
}

const targets = useTestTargets({ sharedRepository: false });

const CASES: [string, string[], Record<string, string>, Partial<Acceptance>][] = [
  ['the candidate is accepted', ['grep -q 42 answer.txt'], {}, { verdict: 'accepted' }],
  ['a check fails', ['grep -q 41 answer.txt'], {}, { verdict: 'failed' }],
  [
    "a check rewrites the worktree's .git pointer",
    ['node point.mjs'],
    { 'point.mjs': "import { writeFileSync } from 'node:fs';\nwriteFileSync('.git', 'gitdir: /nowhere\\n');\n" },
    { verdict: 'interrupted', reason: 'tree-dirty' },
  ],
  [
    'a check leaves files git ignores and a read-only directory',
    ['node leave.mjs', 'true'],
    {
      '.gitignore': 'build/\n',
      'leave.mjs':
        "import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';\nmkdirSync('build/deep', { recursive: true });\nwriteFileSync('build/deep/x', 'x');\nchmodSync('build/deep', 0o500);\n",
    },
    { verdict: 'accepted' },
  ],
];

describe('the check worktree, once accept returns (R13.3)', () => {
  it.each(CASES)('is gone, and no longer registered, when %s', async (_, checks, files, expected) => {
    const repository = await repositoryWithSuite(targets, { checks }, files);
    const { acceptance } = await runThenAccept<Acceptance>(repository, targets.home.path, '42');
    expect(acceptance).toMatchObject(expected);
    expect(readdirSync(join(repository.path, '.statecraft', 'state', 'checks'))).toEqual([]);
    expect(await repository.git('worktree', 'list', '--porcelain')).not.toContain('.statecraft/state/checks');
    // Nothing for git to prune: the worktree's git directory went with it.
    expect(await repository.git('worktree', 'prune', '--dry-run', '--verbose')).toBe('');
    // The agent's workspace stays registered; no registration names a check worktree.
    const administrative = join(repository.path, '.git', 'worktrees');
    const named = readdirSync(administrative).map((id) => readFileSync(join(administrative, id, 'gitdir'), 'utf8'));
    expect(named.filter((path) => path.includes('/.statecraft/state/checks/'))).toEqual([]);
  });
});
