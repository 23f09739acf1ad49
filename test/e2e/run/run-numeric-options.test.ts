import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

interface Account {
  outcome: string;
  timedOut: boolean;
  deadline: { milliseconds: number; at: string };
  artifacts: { request: { path: string } };
}

const targets = useTestTargets();
const scratch = scratchDirectories();

/** `run` with the fixture's `complete` scenario and the given extra options. */
async function runComplete(...extra: string[]) {
  return runStatecraft(['run', targets.repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json', ...extra], {
    home: targets.home.path,
  });
}

/** A usage error leaves nothing behind: no worktree in the repository, no record in the product home. */
async function expectNothingWritten(repository: { path: string; git: (...args: string[]) => Promise<string> }, home: string) {
  expect(await repository.git('worktree', 'list', '--porcelain')).not.toContain('.statecraft/state/workspaces');
  expect(existsSync(join(home, 'targets'))).toBe(false);
}

describe('numeric options have stated limits, and long deadlines work (R7.2)', () => {
  it('a deadline longer than one Node timer holds (600h) does not interrupt an attempt that completes well within it (R7.2)', async () => {
    const run = await runComplete('--deadline', '600h');
    const account = parseJson<Account>(run);
    expect(account.outcome).toBe('completed');
    expect(account.timedOut).toBe(false);
    expect(account.deadline.milliseconds).toBe(600 * 3_600_000);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).not.toContain('TimeoutOverflowWarning');
  });

  it('the longest deadline accepted (8760h) runs; the request carries its wall-clock time', async () => {
    const run = await runComplete('--deadline', '8760h');
    const account = parseJson<Account>(run);
    expect(account.outcome).toBe('completed');
    expect(account.deadline.milliseconds).toBe(8760 * 3_600_000);
    expect(Date.parse(account.deadline.at)).toBeGreaterThan(Date.now() + 364 * 24 * 3_600_000);
  });

  it.each([
    ['twenty digits of hours', '99999999999999999999h'],
    ['one hour over a year', '8761h'],
    ['one millisecond over a year', '31536000001ms'],
    ['four hundred digits of seconds', `${'9'.repeat(400)}s`],
  ])('--deadline of %s is a usage error naming the limit: exit 3, nothing written', async (_label, value) => {
    const fresh = await targets.fresh();
    const home = await scratch.make('statecraft-home');
    const run = await runStatecraft(['run', fresh.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json', '--deadline', value], { home });
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toContain('--deadline');
    expect(run.stderr).toContain('limit of 8760h');
    expect(parseJson<{ usage: { message: string } }>(run).usage.message).toContain('8760h');
    await expectNothingWritten(fresh, home);
  });

  it('--max-turns above the limit (99999999999999999999) is a usage error naming the limit: exit 3, nothing written', async () => {
    const fresh = await targets.fresh();
    const home = await scratch.make('statecraft-home');
    const run = await runStatecraft(
      ['run', fresh.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json', '--max-turns', '99999999999999999999'],
      { home },
    );
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toContain('--max-turns "99999999999999999999": larger than the limit of 1000000');
    await expectNothingWritten(fresh, home);
  });

  it('--max-turns at the limit is carried into the request', async () => {
    const run = await runComplete('--max-turns', '1000000');
    expect(run.exitCode).toBe(0);
    const request = JSON.parse(await readFile(parseJson<Account>(run).artifacts.request.path, 'utf8')) as { limits: { maxTurns: number } };
    expect(request.limits.maxTurns).toBe(1_000_000);
  });

  it('run show --attempt beyond what a record can hold is a usage error naming the limit: exit 3', async () => {
    const run = await runStatecraft(['run', 'show', targets.repository.path, '20261130T000000Z-0a0b0c', '--attempt', '99999999999999999999'], {
      home: targets.home.path,
    });
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toContain(`--attempt "99999999999999999999": larger than the limit of ${Number.MAX_SAFE_INTEGER}`);
  });
});
