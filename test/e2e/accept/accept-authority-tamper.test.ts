import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { repositoryWithSuite, runThenAccept } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';

// R13.5, R13.3: the authority set is the base's. A check running the candidate's code (a build
// step, say) could rewrite an authority file in the worktree for the checks after it, and put it
// back before the suite ends, so the tree reads clean: inside the boundary it cannot.

const targets = useTestTargets({ sharedRepository: false });

/** Copies the candidate's answer over the expected one; says whether it could, and exits 0 either way. */
const TAMPER =
  "import { readFileSync, writeFileSync } from 'node:fs';\n" +
  "try { writeFileSync('tests/expected.txt', readFileSync('answer.txt')); console.log('tampered'); } catch (error) { console.log(`denied: ${error.code}`); }\n";
/** Puts the expected answer back, so the tree reads clean after the suite. */
const RESTORE = "import { writeFileSync } from 'node:fs';\ntry { writeFileSync('tests/expected.txt', 'forty-two\\n'); } catch {}\n";
/** The test: the candidate's answer must be the expected one. */
const COMPARE =
  "import { readFileSync } from 'node:fs';\nconst same = readFileSync('answer.txt', 'utf8').trim() === readFileSync('tests/expected.txt', 'utf8').trim();\nprocess.exit(same ? 0 : 1);\n";

interface Acceptance {
  verdict: string;
  reason: string;
  explanation: string;
  checks: { command: string; exitCode: number | null; stdout: { path: string } }[];
  boundary: 'not-recorded' | { profile?: { readOnly: { path: string; role: string }[] } };
}

describe('a check that rewrites an authority file during the suite (R13.5, R12)', () => {
  it('is denied inside the boundary, so the later check judges the base bytes and the wrong candidate fails', async () => {
    const repository = await repositoryWithSuite(
      targets,
      { checks: ['node tamper.mjs', 'node tests/compare.mjs', 'node restore.mjs'], authority: ['tests/'] },
      { 'tamper.mjs': TAMPER, 'restore.mjs': RESTORE, 'tests/compare.mjs': COMPARE, 'tests/expected.txt': 'forty-two\n' },
    );
    const accepted = await runThenAccept<Acceptance>(repository, targets.home.path, 'forty-one');
    const { acceptance } = accepted;
    expect(acceptance.checks.map((check) => check.exitCode)).toEqual([0, 1]);
    expect(accepted.exitCode).toBe(1);
    expect(acceptance).toMatchObject({ verdict: 'failed', reason: 'check-failed' });
    expect(acceptance.explanation).toContain('node tests/compare.mjs');
    expect(readFileSync(acceptance.checks[0]?.stdout.path ?? '', 'utf8').trim()).toBe('denied: EROFS');
    // The record says what was bound: the declaration and the declared entry, read-only over themselves.
    const boundary = acceptance.boundary;
    // PATH's tool folders inside a home are shown read-only too (role path-entry): which there are depends on the machine.
    const bound = (boundary === 'not-recorded' ? [] : (boundary.profile?.readOnly ?? [])).filter((entry) => entry.role !== 'path-entry');
    expect(bound.map((entry) => entry.role)).toEqual(['authority', 'authority']);
    expect(bound.map((entry) => entry.path.split('/').slice(-2).join('/')).sort()).toEqual(['.statecraft/environment.json', expect.stringMatching(/\/tests$/)]);
  });
});
