import { describe, expect, it } from 'vitest';
import { repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// R13.3, R13.4: every check runs over exactly the candidate. A candidate that holds a gitlink (a
// submodule of the base, never initialised) gets an empty directory there in its check worktree.
// The reading after each check (`git status --ignore-submodules=dirty`) compares a gitlink by its
// HEAD only, and a directory at a gitlink that is no repository at all is never entered: a file an
// earlier check writes into it is neither dirty nor ignored, and the checks after it would read it.
// The second check here fails over the candidate alone and passes only on the file the first left.

interface Acceptance {
  verdict: string;
  reason: string;
  checks: { command: string; exitCode: number | null }[];
  candidate: { changedPaths: string[] };
  receipt: object | null;
}

const targets = useTestTargets({ sharedRepository: false });

const READ = 'grep -qx pass vendor/lib/verdict.txt';

async function judge(plant: string): Promise<{ exitCode: number; acceptance: Acceptance }> {
  const checks = ['sh plant.sh', READ];
  const declaration = { project: { commands: ['sh', 'grep'] }, acceptance: { checks } };
  const repository = await repositoryWithSuite(targets, { checks }, { '.statecraft/environment.json': `${JSON.stringify(declaration)}\n` });
  // The base's gitlink: a submodule's commit, recorded with no .gitmodules and never checked out.
  const base = await repository.git('rev-parse', 'HEAD');
  await repository.git('update-index', '--add', '--cacheinfo', `160000,${base},vendor/lib`);
  await repository.git('commit', '--quiet', '-m', 'a submodule at vendor/lib');
  const run = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', 'plant.sh', `${plant}\n`), '--json'], {
    home: targets.home.path,
  });
  expect(run.exitCode).toBe(0);
  const { runId } = parseJson<{ runId: string }>(run);
  const judged = await runStatecraft(['accept', repository.path, runId, '--json'], { home: targets.home.path, timeoutMs: 120_000 });
  return { exitCode: judged.exitCode, acceptance: parseJson<Acceptance>(judged) };
}

describe('a check that writes into the empty directory of a gitlink the candidate holds (R13.3, R13.4)', () => {
  it('fails the candidate when nothing is planted: the second check finds no verdict file', async () => {
    const { acceptance } = await judge('true');
    expect(acceptance.candidate.changedPaths).toEqual(['plant.sh']);
    expect(acceptance.checks.map((check) => [check.command, check.exitCode])).toEqual([
      ['sh plant.sh', 0],
      [READ, 2],
    ]);
    expect(acceptance).toMatchObject({ verdict: 'failed', reason: 'check-failed', receipt: null });
  });

  it('never accepts the candidate on the file an earlier check left inside the gitlink', async () => {
    const { exitCode, acceptance } = await judge('echo pass > vendor/lib/verdict.txt');
    expect(acceptance.verdict).not.toBe('accepted');
    expect(acceptance.receipt).toBeNull();
    expect(exitCode).not.toBe(0);
  });
});
