import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestTargets } from './fixtures/sample-repository.js';
import { parseJson, runStatecraft } from './fixtures/statecraft-cli.js';

interface Account {
  outcome: string;
  workspace: string;
  baseCommit: string;
  headCommit: string;
}

const targets = useTestTargets({ sharedRepository: false });

async function runWriting(repository: string, scenario: string, path: string, text: string) {
  const prompt = `scenario: ${scenario}\npath: ${path}\ntext: ${text}\n`;
  const run = await runStatecraft(['run', repository, '--adapter', 'fixture', '--prompt', prompt, '--json'], { home: targets.home.path });
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

  it('scenario write-commit also commits the file itself, under its own identity', async () => {
    const repository = await targets.fresh();
    const { account } = await runWriting(repository.path, 'write-commit', 'answer.txt', 'committed');
    expect(account.outcome).toBe('completed');
    expect(account.headCommit).not.toBe(account.baseCommit);
    const author = await repository.git('log', '-1', '--format=%an', account.headCommit);
    expect(author).toBe('fixture agent');
    expect(await repository.git('show', `${account.headCommit}:answer.txt`)).toBe('committed');
  });

  it('scenario write-outside writes beside the workspace, not in it', async () => {
    const repository = await targets.fresh();
    const { account } = await runWriting(repository.path, 'write-outside', 'outside-answer.txt', 'elsewhere');
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
