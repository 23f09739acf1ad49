import { describe, expect, it } from 'vitest';
import { repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// R13.3, R13.4: every check runs over exactly the candidate. An earlier check runs the candidate's
// code, which could leave the checks after it something the candidate does not hold and that a
// reading of HEAD and the tracked tree does not see: the worktree's `.git` pointer turned to a
// repository it made (a later `git diff` then judges that history), files its `.gitignore`
// ignores, or files in the checks' TMPDIR. None of it may carry a candidate to `accepted`.

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

/** The second check: fails the candidate, whose one file ends its line with a space. */
const WHITESPACE_CHECK = 'git diff --check HEAD~1 HEAD';

/** A fake history of two empty commits at `at` (a repository of its own), made with the shell. */
const FAKE_HISTORY = (at: string): string =>
  `git init -q ${at} && git -C ${at} -c user.name=c -c user.email=c@invalid commit -q --allow-empty -m one && git -C ${at} -c user.name=c -c user.email=c@invalid commit -q --allow-empty -m two`;

/** The candidate's one file, `build.mjs`: one line running `script` in a shell, ending in a space (a whitespace error). */
function candidateRunning(script: string): string {
  return `import { execSync } from 'node:child_process'; execSync(${JSON.stringify(script)}); `;
}

async function judge(checks: string[], script: string, boundary: 'bwrap' | 'none' = 'bwrap'): Promise<{ exitCode: number; acceptance: Acceptance }> {
  // `git` declared besides the fixture's programs: the whitespace check names it (R9.3).
  const declaration = { project: { commands: ['git', 'grep', 'touch'] }, acceptance: { checks } };
  const repository = await repositoryWithSuite(
    targets,
    { checks },
    { '.gitignore': 'ignored/\n', '.statecraft/environment.json': `${JSON.stringify(declaration)}\n` },
  );
  const home = { home: targets.home.path };
  const run = await runStatecraft(
    ['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', 'build.mjs', candidateRunning(script)), '--json'],
    home,
  );
  expect(run.exitCode).toBe(0);
  const { runId } = parseJson<{ runId: string }>(run);
  const judged = await runStatecraft(['accept', repository.path, runId, '--json', '--boundary', boundary], { ...home, timeoutMs: 120_000 });
  return { exitCode: judged.exitCode, acceptance: parseJson<Acceptance>(judged) };
}

describe('a check that leaves the checks after it something other than the candidate (R13.3, R13.4)', () => {
  it('fails the candidate when nothing is planted: the whitespace check sees its line', async () => {
    const { exitCode, acceptance } = await judge(['node build.mjs', WHITESPACE_CHECK], 'true');
    expect(acceptance.checks.map((check) => [check.command, check.exitCode])).toEqual([
      ['node build.mjs', 0],
      [WHITESPACE_CHECK, 2],
    ]);
    expect(acceptance).toMatchObject({ verdict: 'failed', reason: 'check-failed', receipt: null });
    expect(exitCode).toBe(1);
  });

  for (const boundary of ['bwrap', 'none'] as const) {
    it(`ends the suite when the worktree's .git file is turned to a repository in an ignored folder (--boundary ${boundary})`, async () => {
      const plant = `${FAKE_HISTORY('ignored/fake')} && printf 'gitdir: ignored/fake/.git\\n' > .git`;
      const { exitCode, acceptance } = await judge(['node build.mjs', WHITESPACE_CHECK], plant, boundary);
      expect(acceptance.checks.map((check) => [check.command, check.exitCode])).toEqual([['node build.mjs', 0]]);
      expect(acceptance).toMatchObject({ verdict: 'interrupted', reason: 'tree-dirty', receipt: null, checksNotRun: 1 });
      expect(acceptance.afterSuite).toMatchObject({ headMoved: false, dirtyPaths: ['.git'] });
      expect(acceptance.explanation).toContain('`node build.mjs`');
      expect(exitCode).toBe(1);
    });
  }

  it('ends the suite when the .git file is replaced by a repository of the check (a directory)', async () => {
    const plant = `rm .git && ${FAKE_HISTORY('.')}`;
    const { exitCode, acceptance } = await judge(['node build.mjs', WHITESPACE_CHECK], plant);
    expect(acceptance.checks.map((check) => [check.command, check.exitCode])).toEqual([['node build.mjs', 0]]);
    expect(acceptance).toMatchObject({ verdict: 'interrupted', reason: 'tree-dirty', receipt: null, afterSuite: { dirtyPaths: ['.git'] } });
    expect(exitCode).toBe(1);
  });

  it("cannot write the worktree's git directory or the repository's: its own files stay dirty", async () => {
    // Excluding everything would hide what the check left; a `commondir` of its own would lead the reading elsewhere.
    const plant = `(printf '*\\n' >> "$(git rev-parse --git-common-dir)/info/exclude"; printf '/nowhere\\n' > "$(git rev-parse --git-dir)/commondir"; echo junk > junk.txt)`;
    const { exitCode, acceptance } = await judge(['node build.mjs', WHITESPACE_CHECK], plant);
    expect(acceptance.checks.map((check) => [check.command, check.exitCode])).toEqual([['node build.mjs', 0]]);
    expect(acceptance).toMatchObject({ verdict: 'interrupted', reason: 'tree-dirty', receipt: null, afterSuite: { dirtyPaths: ['junk.txt'] } });
    expect(exitCode).toBe(1);
  });

  it('removes the ignored files a check left before the next check starts', async () => {
    const plant = 'mkdir -p ignored/deep && echo pass > ignored/deep/verdict.txt';
    const { exitCode, acceptance } = await judge(['node build.mjs', 'grep -qx pass ignored/deep/verdict.txt'], plant);
    expect(acceptance.checks.map((check) => [check.command, check.exitCode])).toEqual([
      ['node build.mjs', 0],
      ['grep -qx pass ignored/deep/verdict.txt', 2],
    ]);
    expect(acceptance).toMatchObject({ verdict: 'failed', reason: 'check-failed', receipt: null });
    expect(exitCode).toBe(1);
  });

  it('gives each check an empty TMPDIR: nothing an earlier check left there is read', async () => {
    const plant = 'mkdir -p "$TMPDIR/deep" && echo pass > "$TMPDIR/deep/verdict.txt" && chmod 500 "$TMPDIR/deep"';
    const read = 'grep -qx pass $TMPDIR/deep/verdict.txt';
    const { exitCode, acceptance } = await judge(['node build.mjs', read], plant);
    expect(acceptance.checks.map((check) => [check.command, check.exitCode])).toEqual([
      ['node build.mjs', 0],
      [read, 2],
    ]);
    expect(acceptance).toMatchObject({ verdict: 'failed', reason: 'check-failed', receipt: null });
    expect(exitCode).toBe(1);
  });

  it("gives each check a TMPDIR it can write, whatever an earlier check did to the directory's mode", async () => {
    const { exitCode, acceptance } = await judge(['node build.mjs', 'touch $TMPDIR/written'], 'chmod 0 "$TMPDIR"');
    expect(acceptance.checks.map((check) => [check.command, check.exitCode])).toEqual([
      ['node build.mjs', 0],
      ['touch $TMPDIR/written', 0],
    ]);
    expect(acceptance).toMatchObject({ verdict: 'accepted', reason: 'every-check-passed' });
    expect(exitCode).toBe(0);
  });
});
