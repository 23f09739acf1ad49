import { describe, expect, it } from 'vitest';
import { repositoryWithSuite, runThenAccept } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';

// R13.3, R13.4: the suite runs over exactly the candidate's bytes. A check that rewrites a file
// for the checks after it, and a later one that puts it back, leave a clean tree at the end: the
// worktree is read after every check, so the rewrite ends the suite, naming the check that made it.

interface Acceptance {
  verdict: string;
  reason: string;
  explanation: string;
  checks: { command: string; exitCode: number | null }[];
  checksNotRun: number;
  afterSuite: 'not-recorded' | { headMoved: boolean; dirtyPaths: string[] };
  receipt: object | null;
}

const targets = useTestTargets({ sharedRepository: false });

const BUILD = "import { writeFileSync } from 'node:fs';\nwriteFileSync('answer.txt', 'forty-two\\n');\n";
const LINT = "import { writeFileSync } from 'node:fs';\nwriteFileSync('answer.txt', 'forty-one\\n');\n";

describe('a check that changes the candidate for the checks after it (R13.3, R13.4)', () => {
  it('ends the suite as tree-dirty at that check, though a later check would have put the bytes back', async () => {
    const repository = await repositoryWithSuite(
      targets,
      { checks: ['node build.mjs', 'grep -qx forty-two answer.txt', 'node lint.mjs'] },
      { 'build.mjs': BUILD, 'lint.mjs': LINT },
    );
    const { exitCode, acceptance } = await runThenAccept<Acceptance>(repository, targets.home.path, 'forty-one');
    expect(exitCode).toBe(1);
    expect(acceptance).toMatchObject({ verdict: 'interrupted', reason: 'tree-dirty', receipt: null, checksNotRun: 2 });
    expect(acceptance.checks.map((check) => [check.command, check.exitCode])).toEqual([['node build.mjs', 0]]);
    expect(acceptance.explanation).toContain('`node build.mjs`');
    expect(acceptance.afterSuite).toMatchObject({ headMoved: false, dirtyPaths: ['answer.txt'] });
  });
});
