import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// Who made a candidate and what an attempt changed are told from the workspace as the attempt
// found it (R13.2), never from a commit's author; an attempt that changed nothing is not judged,
// so no receipt binds its adapter to a tree it did not make (R13.6). Hostile pass finding F4.

interface Start {
  commit: string;
  tree: string;
  uncommitted: boolean;
  is: 'base' | 'other' | { candidateOf: number };
}
interface Candidate {
  commit: string;
  tree: string;
  madeBy: string;
  earlier: 'base' | 'other' | 'not-applicable' | { candidateOf: number };
  start: Start;
  changedPaths: string[];
  changedSinceStart: number;
}
interface Acceptance {
  verdict: string;
  reason: string;
  explanation: string;
  candidate: Candidate;
  checks: unknown[];
  receipt: null | {
    adapter: { name: string };
    attempt: { attempt: number };
    candidate: { commit: string; madeBy?: string; start?: Start };
  };
}
interface Account {
  runId: string;
  attempt: number;
  outcome: string;
  baseCommit: string;
  workspace: string;
  candidate: Candidate;
  acceptance: Acceptance | 'not-recorded';
}

const targets = useTestTargets({ sharedRepository: false });
const home = () => ({ home: targets.home.path });
const ANSWER_CHECK = 'grep -qx forty-two answer.txt';

async function runFixture(repository: string, prompt: string, ...extra: string[]) {
  const run = await runStatecraft(['run', repository, '--adapter', 'fixture', '--prompt', prompt, '--json', ...extra], home());
  return { run, account: parseJson<Account>(run) };
}

async function accept(repository: string, runId: string, attempt: number) {
  const run = await runStatecraft(['accept', repository, runId, '--attempt', String(attempt), '--json'], { ...home(), timeoutMs: 120_000 });
  return { run, acceptance: parseJson<Acceptance>(run) };
}

/** The candidate line `run show` prints for one attempt. */
async function shownCandidate(repository: string, runId: string, attempt: number): Promise<string> {
  const shown = await runStatecraft(['run', 'show', repository, runId, '--attempt', String(attempt), '--posture'], home());
  return shown.stdout.split('\n').find((line) => line.startsWith('  candidate ')) ?? '';
}

describe('a retry that changes nothing is not presented as the author of the tree it found (R13.2, R13.6)', () => {
  it("names the earlier attempt's candidate it started at, counts 0 paths since its start, and is not judged: the tree is judged as attempt 1's", async () => {
    const repository = await repositoryWithSuite(targets, { checks: [ANSWER_CHECK] });
    const first = await runFixture(repository.path, writePrompt('write', 'answer.txt', 'forty-two'));
    expect(first.account.candidate).toMatchObject({ madeBy: 'statecraft', earlier: 'not-applicable', changedPaths: ['answer.txt'], changedSinceStart: 1 });
    // Attempt 2 does nothing at all: init, a message and a result.
    const second = await runFixture(repository.path, 'scenario: complete', '--retry', first.account.runId);
    expect(second.account).toMatchObject({ attempt: 2, outcome: 'completed' });
    expect(second.account.candidate).toMatchObject({
      commit: first.account.candidate.commit,
      madeBy: 'earlier',
      earlier: { candidateOf: 1 },
      start: { commit: first.account.candidate.commit, tree: first.account.candidate.tree, uncommitted: false, is: { candidateOf: 1 } },
      changedPaths: ['answer.txt'],
      changedSinceStart: 0,
    });
    const line = await shownCandidate(repository.path, first.account.runId, 2);
    expect(line).toContain(
      "made before the attempt: attempt 1's candidate, where the attempt started; 1 path changed from the base, 0 since the attempt's start",
    );
    expect(line).not.toContain('made by');

    const unjudged = await accept(repository.path, first.account.runId, 2);
    expect(unjudged.run.exitCode).toBe(1);
    expect(unjudged.acceptance).toMatchObject({ verdict: 'not-attempted', reason: 'attempt-changed-nothing', checks: [], receipt: null });
    expect(unjudged.acceptance.explanation).toContain(`statecraft accept ${repository.path} ${first.account.runId} --attempt 1`);
    // The tree is judged as the attempt whose tree it is, and its receipt names that attempt.
    const judged = await accept(repository.path, first.account.runId, 1);
    expect(judged.run.exitCode).toBe(0);
    expect(judged.acceptance.receipt).toMatchObject({
      attempt: { attempt: 1 },
      candidate: { commit: first.account.candidate.commit, madeBy: 'statecraft', start: { commit: first.account.baseCommit, is: 'base' } },
    });
  });

  it('a retry that writes on top of the earlier candidate counts its change from its start, and its receipt names where it started', async () => {
    const repository = await repositoryWithSuite(targets, { checks: [ANSWER_CHECK] });
    const first = await runFixture(repository.path, writePrompt('write', 'notes.txt', 'a first try'));
    const second = await runFixture(repository.path, writePrompt('write', 'answer.txt', 'forty-two'), '--retry', first.account.runId, '--accept');
    expect(second.run.exitCode).toBe(0);
    expect(second.account.candidate).toMatchObject({
      madeBy: 'statecraft',
      earlier: 'not-applicable',
      start: { commit: first.account.candidate.commit, is: { candidateOf: 1 } },
      changedPaths: ['answer.txt', 'notes.txt'],
      changedSinceStart: 1,
    });
    expect(await shownCandidate(repository.path, first.account.runId, 2)).toContain(
      "(made by statecraft; 2 paths changed from the base, 1 since the attempt's start)",
    );
    expect(second.account.acceptance).toMatchObject({
      verdict: 'accepted',
      receipt: { attempt: { attempt: 2 }, candidate: { madeBy: 'statecraft', start: { commit: first.account.candidate.commit, is: { candidateOf: 1 } } } },
    });
  });

  it('changes left uncommitted in the workspace before a retry are counted as its start, not as its work: committed by statecraft, not judged', async () => {
    const repository = await repositoryWithSuite(targets, { checks: [ANSWER_CHECK] });
    const first = await runFixture(repository.path, 'scenario: complete');
    // What an attempt that did not complete leaves: a change no commit holds.
    await writeFile(join(first.account.workspace, 'answer.txt'), 'forty-two\n');
    const second = await runFixture(repository.path, 'scenario: complete', '--retry', first.account.runId, '--accept');
    expect(second.run.exitCode).toBe(1);
    expect(second.account.candidate).toMatchObject({
      madeBy: 'statecraft',
      start: { commit: first.account.baseCommit, uncommitted: true, is: 'base' },
      changedPaths: ['answer.txt'],
      changedSinceStart: 0,
    });
    expect(second.account.candidate.start.tree).toBe(second.account.candidate.tree);
    expect(second.account.acceptance).toMatchObject({ verdict: 'not-attempted', reason: 'attempt-changed-nothing', receipt: null });
    expect(await shownCandidate(repository.path, first.account.runId, 2)).toContain(
      "(made by statecraft; 1 path changed from the base, 0 since the attempt's start, which held changes left uncommitted before it)",
    );
  });

  // Without the boundary: inside it the repository's git directory is read-only, and an agent cannot commit (R12).
  it('a retry whose agent commits on its own (boundary none) reads made by agent, its change counted from its start', async () => {
    const repository = await repositoryWithSuite(targets, { checks: [ANSWER_CHECK] });
    const first = await runFixture(repository.path, writePrompt('write', 'notes.txt', 'a first try'));
    const second = await runFixture(
      repository.path,
      writePrompt('write-commit', 'answer.txt', 'forty-two'),
      '--retry',
      first.account.runId,
      '--boundary',
      'none',
    );
    expect(second.account.candidate).toMatchObject({
      madeBy: 'agent',
      earlier: 'not-applicable',
      start: { commit: first.account.candidate.commit, is: { candidateOf: 1 } },
      changedSinceStart: 1,
    });
    expect(second.account.candidate.commit).not.toBe(first.account.candidate.commit);
  });
});

describe('a fresh attempt is told apart from the base it started at (R13.2)', () => {
  it('an attempt that changes nothing reads as the base, never made by agent, and run --accept judges nothing: completed, not failed', async () => {
    const repository = await repositoryWithSuite(targets, { checks: [ANSWER_CHECK] });
    const { run, account } = await runFixture(repository.path, 'scenario: complete', '--accept');
    expect(run.exitCode).toBe(1);
    expect(account.outcome).toBe('completed');
    expect(account.candidate).toMatchObject({
      commit: account.baseCommit,
      madeBy: 'earlier',
      earlier: 'base',
      start: { commit: account.baseCommit, uncommitted: false, is: 'base' },
      changedPaths: [],
      changedSinceStart: 0,
    });
    expect(account.acceptance).toMatchObject({ verdict: 'not-attempted', reason: 'attempt-changed-nothing', checks: [], receipt: null });
    const line = await shownCandidate(repository.path, account.runId, 1);
    expect(line).toContain('(made before the attempt: the base, where the attempt started; 0 paths changed from the base)');
  });

  it("an attempt that writes a file still reads as statecraft's commit of the tree it left, counted from the base", async () => {
    const repository = await repositoryWithSuite(targets, { checks: [ANSWER_CHECK] });
    const { account } = await runFixture(repository.path, writePrompt('write', 'answer.txt', 'forty-two'), '--accept');
    expect(account.candidate).toMatchObject({
      madeBy: 'statecraft',
      start: { commit: account.baseCommit, is: 'base' },
      changedPaths: ['answer.txt'],
      // Counted by git from the base, as the ranking rule reads it (docs/decisions/0331-ranking-rule.md).
      changedLines: { added: 1, removed: 0 },
      changedSinceStart: 1,
    });
    expect(await shownCandidate(repository.path, account.runId, 1)).toMatch(
      /^ {2}candidate {7}[0-9a-f]{12} \(made by statecraft; 1 path changed from the base\)$/,
    );
    expect(account.acceptance).toMatchObject({
      verdict: 'accepted',
      receipt: { candidate: { madeBy: 'statecraft', start: { commit: account.baseCommit, is: 'base' } } },
    });
  });
});
