import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

const targets = useTestTargets({ sharedRepository: false });
const home = () => ({ home: targets.home.path });

// R13.3/R13.4: a candidate whose commit is gone cannot be checked out for the suite. The judge made
// the worktree's directory (empty) before `git worktree add`, and set the checks' sandbox up on it
// meanwhile (candidate-worktree.ts): when git fails, the sandbox's probe runs no check and the
// directory goes with the owner file — nothing of the judgement is left in the repository.
describe('a candidate that cannot be checked out (R13.4)', () => {
  it('is no-acceptance (candidate-unavailable), exit 1, every check counted as not run; no worktree or directory left', async () => {
    const repository = await repositoryWithSuite(targets, { checks: ['true', 'true'] });
    const run = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', 'answer.txt', 'ok'), '--json'], home());
    expect(run.exitCode).toBe(0);
    const account = parseJson<{ runId: string; workspace: string; candidate: { commit: string } }>(run);
    // The candidate made unreachable, then pruned: its commit no longer exists.
    await repository.git('worktree', 'remove', '--force', account.workspace);
    await repository.git('branch', '--delete', '--force', `statecraft/${account.runId}`);
    await repository.git('reflog', 'expire', '--expire=now', '--all');
    await repository.git('gc', '--quiet', '--prune=now');
    await expect(repository.git('cat-file', '-e', account.candidate.commit)).rejects.toThrow();

    const accepted = await runStatecraft(['accept', repository.path, account.runId, '--json'], { ...home(), timeoutMs: 120_000 });
    expect(accepted.exitCode).toBe(1);
    const answer = parseJson<{ verdict: string; reason: string; checksNotRun: number; receipt: unknown }>(accepted);
    expect(answer).toMatchObject({ verdict: 'no-acceptance', reason: 'candidate-unavailable', checksNotRun: 2, receipt: null });
    const checks = join(repository.path, '.statecraft', 'state', 'checks');
    expect(existsSync(checks) ? await readdir(checks) : []).toEqual([]);
    expect(await repository.git('worktree', 'list', '--porcelain')).not.toContain('.statecraft/state/checks');
  });
});
