import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { dir } from 'tmp-promise';
import { describe, expect, it } from 'vitest';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// Less typing: the target defaults to the repository containing the current
// directory; a run is named by its id, a unique start of it, or `latest`; `--retry <run>` reuses
// that run's adapter, prompt and limits unless the command line gives them.

const targets = useTestTargets({ sharedRepository: false });
const options = (extra: { cwd?: string } = {}) => ({ home: targets.home.path, timeoutMs: 120_000, ...extra });

interface Account {
  runId: string;
  attempt: number;
  outcome: string;
  workspace: string;
  deadline: { milliseconds: number };
  refusals: unknown[];
  posture: { adapter: { name: string } };
}

/** A repository with two runs of the fixture (refuse, then complete), both started in it without naming it. */
async function repositoryWithTwoRuns() {
  const repository = await targets.fresh();
  const first = await runStatecraft(
    ['run', '--adapter', 'fixture', '--prompt', 'scenario: refuse', '--deadline', '45s', '--json'],
    options({ cwd: repository.path }),
  );
  expect(first.exitCode, first.stderr).toBe(1);
  const second = await runStatecraft(['run', '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], options({ cwd: repository.path }));
  expect(second.exitCode, second.stderr).toBe(0);
  return { repository, first: parseJson<Account>(first), second: parseJson<Account>(second) };
}

describe('a run named by a start of its id, or latest; the target by where the operator stands', () => {
  it('latest, a unique start and the whole id name the same run in run show, run diff, run log and accept; the target defaults to the current repository', async () => {
    const { repository, first, second } = await repositoryWithTwoRuns();
    expect(first.runId).not.toBe(second.runId);
    const unique = second.runId.slice(0, second.runId.length - 1);
    for (const reference of ['latest', unique, second.runId]) {
      for (const verb of [
        ['run', 'show'],
        ['run', 'diff'],
        ['run', 'log'],
      ]) {
        const named = await runStatecraft([...verb, repository.path, reference, '--json'], options());
        expect(parseJson<{ runId: string }>(named).runId, `${verb.join(' ')} ${reference}`).toBe(second.runId);
        const here = await runStatecraft([...verb, reference, '--json'], options({ cwd: join(repository.path) }));
        expect(parseJson<{ runId: string }>(here).runId, `${verb.join(' ')} ${reference} from inside`).toBe(second.runId);
      }
    }
    // From inside the attempt's own workspace, the target is still the repository it ran against.
    const fromWorkspace = await runStatecraft(['run', 'list', '--json'], options({ cwd: second.workspace }));
    expect(fromWorkspace.exitCode, fromWorkspace.stderr).toBe(0);
    expect(parseJson<{ target: string; attempts: unknown[] }>(fromWorkspace)).toMatchObject({ target: repository.path });
    await mkdir(join(repository.path, 'sub'), { recursive: true });
    const fromBelow = parseJson<{ target: string; attempts: unknown[] }>(
      await runStatecraft(['run', 'list', '--json'], options({ cwd: join(repository.path, 'sub') })),
    );
    expect(fromBelow.target).toBe(repository.path);
    expect(fromBelow.attempts).toHaveLength(2);
    // accept, on the first run by a start of its id: judged, and not-attempted (it did not complete).
    const accept = await runStatecraft(['accept', first.runId.slice(0, -2), '--json'], options({ cwd: repository.path }));
    expect(accept.exitCode, accept.stderr).toBe(1);
    expect(parseJson<{ verdict: string }>(accept).verdict).toBe('not-attempted');
    const shown = parseJson<{ runId: string; acceptance: { verdict: string } }>(
      await runStatecraft(['run', 'show', first.runId, '--json'], options({ cwd: repository.path })),
    );
    expect(shown.acceptance.verdict).toBe('not-attempted');
  });

  it('a start two runs share is a usage error (exit 3) naming both; one no run has is refused (exit 2) naming what was looked for', async () => {
    const { repository, first, second } = await repositoryWithTwoRuns();
    // Both ids begin with the year.
    const shared = first.runId.slice(0, 4);
    for (const verb of [['run', 'show'], ['run', 'diff'], ['run', 'log'], ['accept']]) {
      const ambiguous = await runStatecraft([...verb, repository.path, shared, '--json'], options());
      expect(ambiguous.exitCode, `${verb.join(' ')}: ${ambiguous.stderr}`).toBe(3);
      const usage = parseJson<{ usage: { message: string } }>(ambiguous).usage.message;
      expect(usage).toContain(`run ${shared} is ambiguous: 2 runs start with it`);
      expect(usage).toContain(first.runId);
      expect(usage).toContain(second.runId);
      expect(ambiguous.stderr).toContain(second.runId);
      const unknown = await runStatecraft([...verb, repository.path, '1999', '--json'], options());
      expect(unknown.exitCode).toBe(2);
      expect(unknown.stderr).toContain('no run of');
      expect(unknown.stderr).toContain('has an id starting 1999');
    }
    const retry = await runStatecraft(['run', repository.path, '--retry', shared, '--json'], options());
    expect(retry.exitCode).toBe(3);
    // latest in a repository with no runs: refused, saying so.
    const empty = await targets.fresh();
    const none = await runStatecraft(['run', 'show', empty.path, 'latest'], options());
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('has no run yet');
  });

  it('outside any repository, a verb given no target is a usage error (exit 3) saying so', async () => {
    const outside = await dir({ unsafeCleanup: true, prefix: 'statecraft-not-a-repository' });
    try {
      for (const args of [
        ['run', 'list'],
        ['run', 'log', 'latest'],
        ['run', '--adapter', 'fixture', '--prompt', 'scenario: complete'],
      ]) {
        const answer = await runStatecraft([...args, '--json'], options({ cwd: outside.path }));
        expect(answer.exitCode, args.join(' ')).toBe(3);
        expect(parseJson<{ usage: { message: string } }>(answer).usage.message).toBe(`no target was named and ${outside.path} is not inside a git repository`);
      }
    } finally {
      await outside.cleanup();
    }
  });
});

describe('--retry <run> reuses the run’s adapter, prompt and limits unless given', () => {
  it('a retry with no --adapter or --prompt runs the same adapter on the same prompt with the same deadline; a given option wins', async () => {
    const { repository, first } = await repositoryWithTwoRuns();
    const again = await runStatecraft(['run', '--retry', first.runId.slice(0, -1), '--json'], options({ cwd: repository.path }));
    expect(again.exitCode, again.stderr).toBe(1);
    const retried = parseJson<Account>(again);
    expect([retried.runId, retried.attempt, retried.outcome]).toEqual([first.runId, 2, 'refused']);
    expect(retried.posture.adapter.name).toBe('fixture');
    expect(retried.deadline.milliseconds).toBe(45_000);
    expect(retried.refusals).toEqual(first.refusals);
    // Given options win: another prompt and deadline.
    const overridden = await runStatecraft(
      ['run', repository.path, '--retry', 'latest', '--prompt', 'scenario: complete', '--deadline', '50s', '--json'],
      options(),
    );
    expect(overridden.exitCode, overridden.stderr).toBe(0);
    const third = parseJson<Account>(overridden);
    expect([third.runId, third.attempt, third.outcome, third.deadline.milliseconds]).toEqual([first.runId, 3, 'completed', 50_000]);
  });

  it('a retry whose kept prompt was altered is refused (exit 2) naming the file, nothing run', async () => {
    const { repository, first } = await repositoryWithTwoRuns();
    const show = parseJson<{ artifacts: { prompt: { path: string } } }>(
      await runStatecraft(['run', 'show', repository.path, first.runId, '--json'], options()),
    );
    const { writeFile } = await import('node:fs/promises');
    await writeFile(show.artifacts.prompt.path, 'scenario: complete');
    const again = await runStatecraft(['run', repository.path, '--retry', first.runId, '--json'], options());
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain(`${show.artifacts.prompt.path}: it does not match its record`);
    const list = parseJson<{ attempts: unknown[] }>(await runStatecraft(['run', 'list', repository.path, '--json'], options()));
    expect(list.attempts).toHaveLength(2);
    // With the prompt given again, the retry runs.
    const given = await runStatecraft(['run', repository.path, '--retry', first.runId, '--prompt', 'scenario: complete', '--json'], options());
    expect(given.exitCode, given.stderr).toBe(0);
  });
});
