import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFiles, writePrompt } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// R13.3, R12: the checks run over exactly the candidate's bytes. Every worktree of the repository
// (the main checkout and each linked one) keeps its agents' workspaces under its own
// `.statecraft/state`, holding what those agents left outside their candidates; whichever worktree
// is judged, the checks see none of them.

interface Acceptance {
  verdict: string;
  reason: string;
  checks: { command: string; exitCode: number | null }[];
  boundary: 'not-recorded' | { profile?: { hidden: { path: string; role: string }[] } };
}

const targets = useTestTargets({ sharedRepository: false });
const scratch = scratchDirectories();
const home = () => ({ home: targets.home.path });

/** An agent's attempt on `target` that leaves the ignored `hidden.txt` in its workspace, then a retry that changes a tracked file: the run id. */
async function leaveHiddenFile(target: string): Promise<string> {
  const first = await runStatecraft(['run', target, '--adapter', 'fixture', '--prompt', writePrompt('write', 'hidden.txt', 'forty-two'), '--json'], home());
  const { runId } = parseJson<{ runId: string }>(first);
  const retry = await runStatecraft(
    ['run', target, '--adapter', 'fixture', '--prompt', writePrompt('write', 'answer.txt', 'x'), '--retry', runId, '--json'],
    home(),
  );
  expect(retry.exitCode).toBe(0);
  return runId;
}

describe("every worktree's agent workspaces, inside the checks' boundary (R13.3, R12)", () => {
  it('are hidden whether the main checkout or a linked worktree is judged', async () => {
    const main = await targets.fresh();
    const linked = join(await scratch.make('statecraft-linked'), 'linked');
    // One check reads what any agent of either worktree left: it passes if it finds it anywhere.
    const check = `grep -qs forty-two ${main.path}/.statecraft/state/workspaces/*/hidden.txt ${linked}/.statecraft/state/workspaces/*/hidden.txt`;
    const declaration = { project: { commands: ['grep'] }, acceptance: { checks: [check] } };
    await writeFiles(main, { '.statecraft/environment.json': `${JSON.stringify(declaration)}\n`, '.gitignore': 'hidden.txt\n' });
    await main.git('add', '-A');
    await main.git('commit', '--quiet', '-m', 'declare the acceptance suite');
    await main.git('worktree', 'add', '--quiet', '-b', 'linked', linked);

    const runs = { main: await leaveHiddenFile(main.path), linked: await leaveHiddenFile(linked) };
    for (const [target, runId, other] of [
      [main.path, runs.main, linked],
      [linked, runs.linked, main.path],
    ] as const) {
      const judged = await runStatecraft(['accept', target, runId, '--json'], { ...home(), timeoutMs: 120_000 });
      const acceptance = parseJson<Acceptance>(judged);
      expect(
        acceptance.checks.map((each) => each.exitCode),
        `judging ${target}`,
      ).toEqual([2]);
      expect(acceptance, `judging ${target}`).toMatchObject({ verdict: 'failed', reason: 'check-failed' });
      expect(judged.exitCode).toBe(1);
      const hidden = acceptance.boundary === 'not-recorded' ? [] : (acceptance.boundary.profile?.hidden ?? []);
      // The homes hidden depend on the machine (accept-boundary.test.ts holds them).
      expect(hidden.map((entry) => entry.role).filter((role) => role !== 'operator-home' && role !== 'other-home')).toEqual([
        'product-home',
        'agent-workspaces',
        'agent-workspaces',
      ]);
      expect(hidden.map((entry) => entry.path)).toContain(join(other, '.statecraft', 'state'));
    }
  });
});
