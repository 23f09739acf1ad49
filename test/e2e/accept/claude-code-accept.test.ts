import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeCodeAdapterPath } from '@statecraft/adapter-claude-code';
import { repositoryWithSuite } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { useLiveClaude } from '../../fixtures/live-claude.js';

// Issue 12, the live path: the real pinned claude, talking only to the model double on 127.0.0.1,
// writes a file through its Write tool, and `run --accept` judges it with a check that reads it.

const scratch = scratchDirectories();
const targets = useTestTargets({ sharedRepository: false });
const claude = useLiveClaude(scratch, 'statecraft-cc-bin');

interface RunJson {
  outcome: string;
  attemptOutcome: string;
  workspace: string;
  acceptance: {
    verdict: string;
    reason: string;
    candidate: { madeBy: string; changedPaths: string[] };
    checks: { command: string; exitCode: number }[];
    receipt: { provider: { name: string } } | null;
  };
}

async function runAccepting(scenario: string) {
  const repository = await repositoryWithSuite(targets, { checks: ['grep -qx forty-two answer.txt'] });
  const operatorHome = await scratch.make('statecraft-cc-operator-home');
  const env = claude.environment(scenario, operatorHome);
  const answer = await runStatecraft(
    ['run', repository.path, '--adapter', claudeCodeAdapterPath(), '--prompt', 'Write the answer.', '--deadline', '120s', '--accept', '--json'],
    { home: targets.home.path, env, timeoutMs: 150_000 },
  );
  return { answer, value: parseJson<RunJson>(answer) };
}

describe('run --accept with the real claude against the model double (issue 12, R13)', () => {
  it('accepts a file claude wrote through its Write tool, judged by a check that reads it', async () => {
    const { answer, value } = await runAccepting('write-answer');
    expect(readFileSync(join(value.workspace, 'answer.txt'), 'utf8')).toBe('forty-two\n');
    expect(value.acceptance).toMatchObject({ verdict: 'accepted', candidate: { madeBy: 'statecraft', changedPaths: ['answer.txt'] } });
    expect(value.acceptance.checks.map((check) => check.exitCode)).toEqual([0]);
    expect(value.acceptance.receipt?.provider.name).toBe('claude');
    expect(answer.exitCode).toBe(0);
  });

  it('fails it when the file is wrong: the attempt reads failed, the completed claim kept', async () => {
    const { answer, value } = await runAccepting('write-wrong-answer');
    expect(value.attemptOutcome).toBe('completed');
    expect(value.outcome).toBe('failed');
    expect(value.acceptance).toMatchObject({ verdict: 'failed', reason: 'check-failed', receipt: null });
    expect(answer.exitCode).toBe(1);
  });
});
