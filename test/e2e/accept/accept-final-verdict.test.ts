import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// R13.4, R8.5: a recorded verdict that judged the candidate is final. A flaky check judged again
// until it passes would otherwise replace `failed` with `accepted` in run show and run list, with
// no trace of the first judgement.

const targets = useTestTargets({ sharedRepository: false });
const home = () => ({ home: targets.home.path });

/** Stands in for the world a flaky check depends on: a file outside the candidate. */
const outside = mkdtempSync(join(tmpdir(), 'statecraft-flaky-'));
afterAll(() => rmSync(outside, { recursive: true, force: true }));

/** The flaky check: passes or fails as the file outside says; while it says nothing, waits (a short --check-deadline kills it: no-acceptance). */
const GATE = (state: string) =>
  "import { existsSync, readFileSync } from 'node:fs';\n" +
  `const state = ${JSON.stringify(state)};\n` +
  "if (existsSync(state)) process.exit(readFileSync(state, 'utf8') === 'pass' ? 0 : 1);\n" +
  'setTimeout(() => process.exit(1), 30000);\n';

interface Account {
  runId: string;
  outcome: string;
  records: { chain: string };
  acceptance: { verdict: string; record: { line: number; at: string } } | 'not-recorded';
}
interface Judged {
  verdict: string;
  record: { line: number; at: string };
}

async function completedRun(state: string) {
  const repository = await repositoryWithSuite(targets, { checks: ['node gate.mjs'] }, { 'gate.mjs': GATE(state) });
  const run = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', 'answer.txt', 'x'), '--json'], home());
  expect(run.exitCode).toBe(0);
  return { repository, account: parseJson<Account>(run) };
}

const accept = (repository: string, runId: string, ...extra: string[]) =>
  runStatecraft(['accept', repository, runId, '--json', ...extra], { ...home(), timeoutMs: 120_000 });
const show = async (repository: string, runId: string) => parseJson<Account>(await runStatecraft(['run', 'show', repository, runId, '--json'], home()));
const listed = async (repository: string) =>
  parseJson<{ attempts: { outcome: string; acceptance: string }[] }>(await runStatecraft(['run', 'list', repository, '--json'], home())).attempts.map(
    (attempt) => [attempt.outcome, attempt.acceptance],
  );

describe('an attempt whose acceptance is already final (R13.4, R8.5)', () => {
  it('is refused a second judgement, exit 2, nothing appended, naming the earlier verdict, its time and the way on; run show and run list still read failed', async () => {
    const state = join(outside, 'failed-then-passes');
    const { repository, account } = await completedRun(state);
    writeFileSync(state, 'fail');
    const first = await accept(repository.path, account.runId);
    expect(first.exitCode).toBe(1);
    const failed = parseJson<Judged>(first);
    expect(failed.verdict).toBe('failed');
    // The flaky condition changes: judged again, this candidate would now pass.
    writeFileSync(state, 'pass');
    const chain = readFileSync(account.records.chain, 'utf8');
    const second = await accept(repository.path, account.runId);
    expect(second.exitCode).toBe(2);
    const refused = parseJson<{ refused: { reason: string; message: string } }>(second).refused;
    expect(refused.reason).toBe('already-judged');
    expect(refused.message).toContain(`already judged failed (check-failed) at ${failed.record.at} (chain line ${failed.record.line})`);
    expect(refused.message).toContain(`statecraft run ${repository.path} --retry ${account.runId}`);
    expect(second.stderr).toContain('already judged failed');
    expect(readFileSync(account.records.chain, 'utf8')).toBe(chain);
    const shown = await show(repository.path, account.runId);
    expect(shown.outcome).toBe('failed');
    expect(shown.acceptance).toMatchObject({ verdict: 'failed', record: { line: failed.record.line } });
    expect(await listed(repository.path)).toEqual([['failed', 'failed']]);
  });

  it('that judged nothing (no-acceptance) is judged again, and once accepted is final in turn', async () => {
    const state = join(outside, 'unjudged-then-passes');
    const { repository, account } = await completedRun(state);
    const first = await accept(repository.path, account.runId, '--check-deadline', '1s');
    expect(first.exitCode).toBe(1);
    expect(parseJson<{ verdict: string; reason: string }>(first)).toMatchObject({ verdict: 'no-acceptance', reason: 'check-timed-out' });
    writeFileSync(state, 'pass');
    const second = await accept(repository.path, account.runId);
    expect(second.exitCode).toBe(0);
    const accepted = parseJson<Judged>(second);
    expect(accepted.verdict).toBe('accepted');
    expect((await show(repository.path, account.runId)).acceptance).toMatchObject({ verdict: 'accepted' });
    writeFileSync(state, 'fail');
    const third = await accept(repository.path, account.runId);
    expect(third.exitCode).toBe(2);
    expect(parseJson<{ refused: { message: string } }>(third).refused.message).toContain(
      `already judged accepted (every-check-passed) at ${accepted.record.at}`,
    );
    expect(await listed(repository.path)).toEqual([['completed', 'accepted']]);
  });
});
