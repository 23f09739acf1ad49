import { describe, expect, it } from 'vitest';
import { repositoryWithSuite } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { createScriptedAdapter } from '../../fixtures/scripted-adapter.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// R13.3, R13.4 (hostile): every check runs over exactly the candidate. An agent that leaves a
// repository of its own in its workspace gets a gitlink committed into its candidate (`git add -A`);
// the fresh worktree of the candidate holds an empty directory there. The reading after each check
// (`git status --ignore-submodules=dirty`) compares a gitlink by its HEAD only, and a directory at a
// gitlink that is no repository at all is never entered: any file an earlier check writes into it
// is neither dirty nor ignored, so it is never removed and the checks after it read it. The second
// check here fails over the candidate alone and passes only on the file the first one left there.

interface Acceptance {
  verdict: string;
  reason: string;
  checks: { command: string; exitCode: number | null }[];
  candidate: { changedPaths: string[] };
  receipt: object | null;
}

const targets = useTestTargets({ sharedRepository: false });

/** An agent whose workspace ends with `plant.sh` (what the first check runs) and a repository of its own at vendor/lib. */
function createNestingAdapter(plant: string) {
  return createScriptedAdapter(
    'nesting',
    [
      "import { execFileSync } from 'node:child_process';",
      "import { mkdirSync, writeFileSync } from 'node:fs';",
      `writeFileSync('plant.sh', ${JSON.stringify(`${plant}\n`)});`,
      "mkdirSync('vendor/lib', { recursive: true });",
      "writeFileSync('vendor/lib/lib.txt', 'library\\n');",
      "const git = (...args) => execFileSync('git', ['-C', 'vendor/lib', '-c', 'user.name=a', '-c', 'user.email=a@invalid', ...args]);",
      "git('init', '-q'); git('add', 'lib.txt'); git('commit', '-q', '-m', 'library');",
      'init();',
      "emit({ type: 'result', terminal: 'completed', claim: { status: 'success', isError: false, reason: 'completed', detail: {} }, turns: 1 });",
    ].join('\n'),
  );
}

const READ = 'grep -qx pass vendor/lib/verdict.txt';

async function judge(plant: string): Promise<{ exitCode: number; acceptance: Acceptance }> {
  const adapter = await createNestingAdapter(plant);
  try {
    const checks = ['sh plant.sh', READ];
    const declaration = { project: { commands: ['sh', 'grep'] }, acceptance: { checks } };
    const repository = await repositoryWithSuite(targets, { checks }, { '.statecraft/environment.json': `${JSON.stringify(declaration)}\n` });
    const run = await runStatecraft(['run', repository.path, '--adapter', adapter.executable, '--prompt', 'nest', '--json'], { home: targets.home.path });
    expect(run.exitCode).toBe(0);
    const { runId } = parseJson<{ runId: string }>(run);
    const judged = await runStatecraft(['accept', repository.path, runId, '--json'], { home: targets.home.path, timeoutMs: 120_000 });
    return { exitCode: judged.exitCode, acceptance: parseJson<Acceptance>(judged) };
  } finally {
    await adapter.remove();
  }
}

describe('a check that writes into the empty directory of a gitlink the candidate holds (R13.3, R13.4)', () => {
  it('fails the candidate when nothing is planted: the second check finds no verdict file', async () => {
    const { acceptance } = await judge('true');
    expect(acceptance.candidate.changedPaths).toContain('vendor/lib');
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
