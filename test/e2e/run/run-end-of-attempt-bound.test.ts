import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { createScriptedAdapter } from '../../fixtures/scripted-adapter.js';
import { finishedRun, parseJson, runStatecraft, startStatecraft } from '../../fixtures/statecraft-cli.js';

// R7.2, R13.2: the deadline bounds the attempt, and statecraft reads the tree the agent left. The
// agent chooses that tree: a sparse file costs it nothing to make, and 4 GiB of one took `git add -A`
// about two minutes here, after a 5 s deadline, with the target's lock held and Ctrl-C unheard. The end's
// git has a bound of its own (the deadline, within 10-60 s) and stops at the operator's interrupt.

interface Account {
  runId: string;
  outcome: string;
  workspace: string;
  headCommit: string;
  workspaceDirty: boolean | string;
  candidate: string | { notIdentified: string } | { commit: string };
}

/**
 * An adapter that leaves a sparse 64 GiB file in its workspace (ftruncate: no byte is written) and
 * completes: `git add -A` of 4 GiB of it took two minutes here, so no machine commits this in 10 s.
 */
function createSparseTreeAdapter(): Promise<{ executable: string; remove: () => Promise<void> }> {
  return createScriptedAdapter(
    'sparse-tree',
    [
      "import { closeSync, ftruncateSync, openSync } from 'node:fs';",
      "const file = openSync('huge.bin', 'w');",
      'ftruncateSync(file, 64 * 1024 ** 3);',
      'closeSync(file);',
      'init();',
      "emit({ type: 'result', terminal: 'completed', claim: { status: 'success', isError: false, reason: 'completed', detail: {} }, turns: 1 });",
    ].join('\n'),
  );
}

/** Host pids of a `git add -A` whose command line names a path under `target` (the run's workspace). */
function gitAddsUnder(target: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const words = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        return words.includes('add') && words.includes('-A') && words.some((word) => word.includes(target));
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** The workspace's registered git directory holds no index lock, and git works there as before. */
async function expectWorkspaceUsable(workspace: string): Promise<void> {
  const gitDirectory = (await promisify(execFile)('git', ['-C', workspace, 'rev-parse', '--absolute-git-dir'])).stdout.trim();
  expect(existsSync(join(gitDirectory, 'index.lock')), 'a killed git leaves no index lock behind').toBe(false);
  const status = await promisify(execFile)('git', ['-C', workspace, 'status', '--porcelain']);
  expect(status.stdout).toContain('?? huge.bin');
}

const targets = useTestTargets({ sharedRepository: false });

describe('the end of an attempt, over a tree made to be slow to commit (R7.2, R13.2)', () => {
  it('is stopped at its bound: the outcome stands, the candidate is not identified and says why, and the workspace is left usable', async () => {
    const adapter = await createSparseTreeAdapter();
    try {
      const target = await targets.fresh();
      const started = Date.now();
      const run = await runStatecraft(['run', target.path, '--adapter', adapter.executable, '--prompt', 'go', '--deadline', '5s', '--json'], {
        home: targets.home.path,
      });
      const elapsedMs = Date.now() - started;
      const account = parseJson<Account>(run);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(account.outcome).toBe('completed');
      expect(account.candidate).toEqual({
        notIdentified: expect.stringMatching(/^git add -A in .* was stopped: the end of the attempt took more than 10 s/) as unknown,
      });
      expect(account).toMatchObject({ headCommit: 'not-recorded', workspaceDirty: 'not-recorded' });
      // Without the bound this run took about two minutes here (the test's own 60 s limit ends it first).
      expect(elapsedMs).toBeLessThan(40_000);
      await expectWorkspaceUsable(account.workspace);
      // The human account says it too.
      const shown = await runStatecraft(['run', 'show', target.path, account.runId, '--posture'], { home: targets.home.path });
      expect(shown.stdout).toMatch(/candidate {7}not identified: git add -A in .* was stopped: the end of the attempt took more than 10 s/);
      // Judging it finds no candidate: nothing is accepted that was not committed.
      const judged = await runStatecraft(['accept', target.path, account.runId, '--json'], { home: targets.home.path });
      expect(judged.exitCode, judged.stderr).toBe(1);
      expect(parseJson<{ verdict: string; reason: string; explanation: string }>(judged)).toMatchObject({
        verdict: 'no-acceptance',
        reason: 'no-candidate',
        explanation: expect.stringContaining('was stopped: the end of the attempt took more than 10 s') as unknown,
      });
    } finally {
      await adapter.remove();
    }
  });

  it("is stopped by the operator's interrupt, at once, though its bound is a minute away", async () => {
    const adapter = await createSparseTreeAdapter();
    try {
      const target = await targets.fresh();
      const running = startStatecraft(['run', target.path, '--adapter', adapter.executable, '--prompt', 'go', '--deadline', '10m', '--json'], {
        home: targets.home.path,
      });
      const waitUntil = Date.now() + 30_000;
      while (gitAddsUnder(target.path).length === 0) {
        if (Date.now() > waitUntil) throw new Error('no git add -A started in the workspace within 30 s');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const interrupted = Date.now();
      running.kill('SIGINT');
      const run = await finishedRun(running);
      const account = parseJson<Account>(run);
      expect(Date.now() - interrupted).toBeLessThan(15_000);
      // The attempt had completed before the interrupt: that outcome stands (not `cancelled`).
      expect(run.exitCode, run.stderr).toBe(0);
      expect(account.outcome).toBe('completed');
      expect(account.candidate).toEqual({
        notIdentified: expect.stringMatching(/^git add -A in .* was stopped: the operator interrupted the end of the attempt$/) as unknown,
      });
      expect(gitAddsUnder(target.path)).toEqual([]);
      await expectWorkspaceUsable(account.workspace);
    } finally {
      await adapter.remove();
    }
  });
});
