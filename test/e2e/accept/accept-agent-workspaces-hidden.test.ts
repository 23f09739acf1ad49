import { describe, expect, it } from 'vitest';
import { repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// R13.3, R12: the checks run over exactly the candidate's bytes. The agents' workspaces sit in the
// target beside the checks' worktree (.statecraft/state/workspaces), holding what the agent left
// outside its candidate (ignored files): inside the checks' boundary they are hidden.

interface Acceptance {
  verdict: string;
  reason: string;
  checks: { command: string; exitCode: number | null }[];
  boundary: 'not-recorded' | { profile?: { hidden: { role: string }[] } };
}

const targets = useTestTargets({ sharedRepository: false });

describe("the agents' workspaces, inside the checks' boundary (R13.3, R12)", () => {
  it('are hidden: a check reading an ignored file the agent left in its workspace finds nothing', async () => {
    // The agent writes `hidden.txt`, which the base ignores: its workspace holds it, the candidate does not.
    const repository = await repositoryWithSuite(
      targets,
      { checks: ['grep -qx forty-two ../../workspaces/$STATECRAFT_RUN_ID/hidden.txt'] },
      { '.gitignore': 'hidden.txt\n' },
    );
    // An attempt that leaves only an ignored file changed nothing and is not judged: a retry then changes a tracked file.
    const home = { home: targets.home.path };
    const first = await runStatecraft(
      ['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', 'hidden.txt', 'forty-two'), '--json'],
      home,
    );
    const { runId } = parseJson<{ runId: string }>(first);
    await runStatecraft(
      ['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', 'answer.txt', 'x'), '--retry', runId, '--json'],
      home,
    );
    const judged = await runStatecraft(['accept', repository.path, runId, '--json'], { ...home, timeoutMs: 120_000 });
    const [exitCode, acceptance] = [judged.exitCode, parseJson<Acceptance>(judged)];
    expect(acceptance.checks.map((check) => check.exitCode)).toEqual([2]);
    expect(acceptance).toMatchObject({ verdict: 'failed', reason: 'check-failed' });
    expect(exitCode).toBe(1);
    const hidden = acceptance.boundary === 'not-recorded' ? [] : (acceptance.boundary.profile?.hidden ?? []);
    // The homes are hidden first (which homes depends on the machine), then the product home and the workspaces.
    expect(hidden.map((entry) => entry.role).filter((role) => role !== 'operator-home' && role !== 'other-home')).toEqual(['product-home', 'agent-workspaces']);
  });
});
