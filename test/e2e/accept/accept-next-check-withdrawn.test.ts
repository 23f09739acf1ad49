import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// R13.3, R13.4, R8.4: the next check's sandbox is assembled while the worktree is read after the
// check before it (that check's processes are all gone by then), and waits at its gate. When the
// reading finds the tree changed, the suite ends there: the waiting check is withdrawn, never runs,
// and leaves no output files that no record names (doctor would report them).

interface Acceptance {
  verdict: string;
  reason: string;
  checks: { command: string; exitCode: number | null }[];
  checksNotRun: number;
  afterSuite: 'not-recorded' | { dirtyPaths: string[] };
}

interface Finding {
  kind: string;
}

const targets = useTestTargets({ sharedRepository: false });

/** Each leaves the worktree other than the candidate in its own way, and exits 0. */
const CHANGES: [string, string, string][] = [
  ['rewrites a file the candidate holds', "writeFileSync('answer.txt', 'rewritten\\n');", 'answer.txt'],
  ['leaves a file the candidate does not hold', "writeFileSync('left-behind.txt', 'x\\n');", 'left-behind.txt'],
  ["rewrites the worktree's .git pointer", "writeFileSync('.git', 'gitdir: /nowhere\\n');", '.git'],
];

describe('the check after one that changed the tree (R13.3, R13.4)', () => {
  it.each(CHANGES)('is withdrawn unrun and leaves no files when the check before it %s', async (_, change, dirty) => {
    const repository = await repositoryWithSuite(
      targets,
      // The second check would print; the third never gets a sandbox.
      { checks: ['node change.mjs', 'node print.mjs', 'true'] },
      { 'change.mjs': `import { writeFileSync } from 'node:fs';\n${change}\n`, 'print.mjs': "console.log('the second check ran');\n" },
    );
    const home = targets.home.path;
    const run = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', 'answer.txt', '42'), '--json'], {
      home,
    });
    expect(run.exitCode).toBe(0);
    const account = parseJson<{ runId: string; records: { chain: string } }>(run);
    const accepted = await runStatecraft(['accept', repository.path, account.runId, '--json'], { home, timeoutMs: 120_000 });
    const acceptance = parseJson<Acceptance>(accepted);
    expect(accepted.exitCode).toBe(1);
    expect(acceptance).toMatchObject({ verdict: 'interrupted', reason: 'tree-dirty', checksNotRun: 2 });
    expect(acceptance.checks.map((check) => [check.command, check.exitCode])).toEqual([['node change.mjs', 0]]);
    expect(acceptance.afterSuite).toMatchObject({ dirtyPaths: [dirty] });
    // Only the first check's outputs: the withdrawn one's, opened as its sandbox was assembled, are gone.
    const judged = join(dirname(account.records.chain), 'attempts', account.runId, '1', 'acceptance-1');
    expect(existsSync(judged) ? readdirSync(judged).sort() : []).toEqual(['check-1.stderr', 'check-1.stdout']);
    const doctor = await runStatecraft(['doctor', '--json'], { home });
    expect(parseJson<{ findings: Finding[] }>(doctor).findings.filter((finding) => finding.kind === 'unrecorded-acceptance-files')).toEqual([]);
    expect(doctor.exitCode).toBe(0);
  });
});
