import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

interface Account {
  outcome: string;
  workspace: string;
  baseCommit: string;
  headCommit: string;
  workspaceDirty: boolean;
  branch: string;
  candidate:
    'not-recorded' | { commit: string; tree: string; madeBy: string; changedPaths: string[]; ignored: { note: string; count: number; paths: string[] } };
}

const targets = useTestTargets({ sharedRepository: false });

async function runWriting(repository: string, scenario: string, path: string, text: string, ...extra: string[]) {
  const prompt = `scenario: ${scenario}\npath: ${path}\ntext: ${text}\n`;
  const run = await runStatecraft(['run', repository, '--adapter', 'fixture', '--prompt', prompt, '--json', ...extra], { home: targets.home.path });
  return { run, account: parseJson<Account>(run) };
}

describe('fixture scenarios that change the workspace, so acceptance is testable with no provider (R13)', () => {
  it('scenario write puts the given text at the given path in the workspace and completes', async () => {
    const repository = await targets.fresh();
    const { run, account } = await runWriting(repository.path, 'write', 'notes/answer.txt', 'forty-two');
    expect(run.exitCode).toBe(0);
    expect(account.outcome).toBe('completed');
    expect(readFileSync(join(account.workspace, 'notes/answer.txt'), 'utf8')).toBe('forty-two\n');
  });

  it('scenario write-commit (boundary none) also commits the file itself, under its own identity', async () => {
    const repository = await targets.fresh();
    // The agent can commit only without the evidence boundary: inside it the operator's .git is read-only (R12).
    const { account } = await runWriting(repository.path, 'write-commit', 'answer.txt', 'committed', '--boundary', 'none');
    expect(account.outcome).toBe('completed');
    expect(account.headCommit).not.toBe(account.baseCommit);
    const author = await repository.git('log', '-1', '--format=%an', account.headCommit);
    expect(author).toBe('fixture agent');
    expect(await repository.git('show', `${account.headCommit}:answer.txt`)).toBe('committed');
  });

  it('under the evidence boundary the agent cannot commit: .git is read-only, the attempt fails and nothing moves the branch (R12)', async () => {
    const repository = await targets.fresh();
    const { run, account } = await runWriting(repository.path, 'write-commit', 'answer.txt', 'committed');
    expect(run.exitCode).toBe(1);
    expect(account.outcome).not.toBe('completed');
    expect(account.headCommit).toBe(account.baseCommit);
  });

  it('under the evidence boundary a write beside the workspace is denied: nothing lands outside it (R12)', async () => {
    const repository = await targets.fresh();
    const { run, account } = await runWriting(repository.path, 'write-outside', 'outside-answer.txt', 'elsewhere');
    expect(run.exitCode).toBe(1);
    expect(existsSync(join(dirname(account.workspace), 'outside-answer.txt'))).toBe(false);
  });

  it('scenario write-outside (boundary none) writes beside the workspace, not in it', async () => {
    const repository = await targets.fresh();
    // Only without the evidence boundary can the agent write outside its workspace (R12).
    const { account } = await runWriting(repository.path, 'write-outside', 'outside-answer.txt', 'elsewhere', '--boundary', 'none');
    expect(account.outcome).toBe('completed');
    expect(existsSync(join(account.workspace, 'outside-answer.txt'))).toBe(false);
    expect(readFileSync(join(dirname(account.workspace), 'outside-answer.txt'), 'utf8')).toBe('elsewhere\n');
  });

  it('a workspace-changing scenario with no path names what it needs and does not complete', async () => {
    const repository = await targets.fresh();
    const run = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: write', '--json'], { home: targets.home.path });
    expect(run.exitCode).toBe(1);
    expect(parseJson<Account>(run).outcome).toBe('interrupted');
  });
});

describe('the candidate of a completed attempt, identified by statecraft before the outcome is appended (R13.2)', () => {
  it('a work tree left dirty is committed by statecraft under a fixed identity, on the run branch, naming the run and attempt', async () => {
    const repository = await targets.fresh({ 'README.md': '# sample\n', '.gitignore': 'build/\n' });
    const prompt = 'scenario: write\npath: answer.txt\ntext: forty-two\n';
    const run = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', prompt, '--json'], { home: targets.home.path });
    const account = parseJson<Account & { runId: string }>(run);
    if (account.candidate === 'not-recorded') throw new Error('a completed attempt must name its candidate');
    expect(account.candidate.madeBy).toBe('statecraft');
    expect(account.candidate.changedPaths).toEqual(['answer.txt']);
    expect(account.candidate.commit).not.toBe(account.baseCommit);
    expect(account.candidate.ignored.note).toMatch(/git add -A: files git ignores, and repositories made inside it, are not part of the candidate/);
    expect(account.headCommit).toBe(account.candidate.commit);
    expect(account.workspaceDirty).toBe(false);
    expect(await repository.git('rev-parse', account.branch)).toBe(account.candidate.commit);
    expect(await repository.git('log', '-1', '--format=%an <%ae>%n%s', account.candidate.commit)).toBe(
      `statecraft <statecraft@statecraft.invalid>\nstatecraft: candidate of run ${account.runId} attempt 1`,
    );
    expect(await repository.git('rev-parse', `${account.candidate.commit}^{tree}`)).toBe(account.candidate.tree);
  });

  it("the agent's own commit (boundary none) is the candidate when it leaves the tree clean", async () => {
    const repository = await targets.fresh();
    const { account } = await runWriting(repository.path, 'write-commit', 'answer.txt', 'mine', '--boundary', 'none');
    if (account.candidate === 'not-recorded') throw new Error('a completed attempt must name its candidate');
    expect(account.candidate.madeBy).toBe('agent');
    expect(account.candidate.commit).toBe(account.headCommit);
    expect(account.candidate.changedPaths).toEqual(['answer.txt']);
  });

  it('an attempt that did not complete names no candidate (not-recorded)', async () => {
    const repository = await targets.fresh();
    const run = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: refuse', '--json'], { home: targets.home.path });
    expect(parseJson<Account>(run).candidate).toBe('not-recorded');
  });
});
