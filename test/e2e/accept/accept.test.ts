import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlive } from '../../fixtures/attempt-stream.js';
import { processesWithArgument } from '../../fixtures/processes-with-argument.js';
import { repositoryWithSuite, writeFiles, writePrompt } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { finishedRun, parseJson, runStatecraft, startStatecraft } from '../../fixtures/statecraft-cli.js';

// Independent acceptance (R13), end to end through the built CLI with the fixture adapter.

interface Output {
  path: string;
  sha256: string;
  bytes: number;
}
interface Acceptance {
  verdict: string;
  reason: string;
  explanation: string;
  candidate: 'not-recorded' | { commit: string; tree: string; madeBy: string; changedPaths: string[] };
  checks: {
    command: string;
    program: string;
    shell: boolean;
    exitCode: number | null;
    timedOut: boolean;
    durationMs: number;
    stdout: Output;
    stderr: Output;
  }[];
  checksNotRun: number;
  authority: { paths: string[] | 'not-recorded'; touched: string[] };
  attemptRefusalCount: number | 'not-recorded';
  receipt: null | {
    kind: string;
    statecraft: { version: string };
    baseCommit: string;
    candidate: { commit: string; tree: string };
    checks: { command: string; exitCode: number }[];
    signature: string;
    policyDigest: string;
  };
  receiptFile: Output | 'none';
  receiptState: string;
  policyDigest: string;
  afterSuite: 'not-recorded' | { headMoved: boolean; dirtyPaths: string[] };
}
interface Account {
  runId: string;
  attempt: number;
  outcome: string;
  attemptOutcome: string;
  outcomeFrom: { record: string; line: number } | 'not-recorded';
  baseCommit: string;
  workspace: string;
  branch: string;
  providerClaim: { status: string; isError: boolean } | 'not-recorded';
  acceptance: Acceptance | 'not-recorded';
}

const targets = useTestTargets({ sharedRepository: false });
const home = () => ({ home: targets.home.path });

async function runFixture(repository: string, prompt: string, ...extra: string[]) {
  const run = await runStatecraft(['run', repository, '--adapter', 'fixture', '--prompt', prompt, '--json', ...extra], home());
  return { run, account: parseJson<Account>(run) };
}

async function accept(repository: string, runId: string, ...extra: string[]) {
  const run = await runStatecraft(['accept', repository, runId, '--json', ...extra], { ...home(), timeoutMs: 120_000 });
  return { run, acceptance: parseJson<Acceptance>(run) };
}

async function show(repository: string, runId: string) {
  const run = await runStatecraft(['run', 'show', repository, runId, '--json'], home());
  return { run, account: parseJson<Account>(run) };
}

const ANSWER_CHECK = 'grep -q forty-two answer.txt';

describe('statecraft accept judges a completed attempt over its candidate (R13)', () => {
  it('a candidate that makes the check pass is accepted, exit 0, with a receipt binding the candidate and each exit code (R13.4, R13.6)', async () => {
    const repository = await repositoryWithSuite(targets, { checks: [ANSWER_CHECK, 'true'] });
    const { account } = await runFixture(repository.path, writePrompt('write', 'answer.txt', 'forty-two'));
    const { run, acceptance } = await accept(repository.path, account.runId);
    expect(run.exitCode).toBe(0);
    expect(acceptance.verdict).toBe('accepted');
    expect(acceptance.reason).toBe('every-check-passed');
    if (acceptance.receipt === null || acceptance.candidate === 'not-recorded' || acceptance.receiptFile === 'none')
      throw new Error('an accepted candidate has a receipt');
    expect(acceptance.receipt.candidate.commit).not.toBe(account.baseCommit);
    expect(acceptance.receipt.candidate).toEqual({
      commit: acceptance.candidate.commit,
      tree: acceptance.candidate.tree,
      madeBy: 'statecraft',
      start: { commit: account.baseCommit, tree: await repository.git('rev-parse', `${account.baseCommit}^{tree}`), uncommitted: false, is: 'base' },
    });
    expect(acceptance.receipt.baseCommit).toBe(account.baseCommit);
    expect(acceptance.receipt.checks.map((check) => [check.command, check.exitCode])).toEqual([
      [ANSWER_CHECK, 0],
      ['true', 0],
    ]);
    expect(acceptance.receipt.signature).toBe('unsigned');
    const cliManifest = JSON.parse(readFileSync(new URL('../../../packages/cli/package.json', import.meta.url), 'utf8')) as { version: string };
    expect(acceptance.receipt.statecraft.version).toBe(cliManifest.version);
    expect(acceptance.receipt.policyDigest).toBe(acceptance.policyDigest);
    expect(acceptance.checks.map((check) => ({ program: check.program, shell: check.shell, exitCode: check.exitCode }))).toEqual([
      { program: 'grep', shell: false, exitCode: 0 },
      { program: 'true', shell: false, exitCode: 0 },
    ]);
    expect(JSON.parse(readFileSync(acceptance.receiptFile.path, 'utf8'))).toEqual(acceptance.receipt);
    expect(acceptance.receiptState).toBe('current');
  });

  it('a candidate that makes the check fail is failed in accept and in run show, exit 1, no receipt, the provider claim kept (R13.4)', async () => {
    const repository = await repositoryWithSuite(targets, { checks: [ANSWER_CHECK] });
    const { account } = await runFixture(repository.path, writePrompt('write', 'answer.txt', 'forty-one'));
    expect(account.outcome).toBe('completed');
    const { run, acceptance } = await accept(repository.path, account.runId);
    expect(run.exitCode).toBe(1);
    expect(acceptance.verdict).toBe('failed');
    expect(acceptance.checks[0]?.exitCode).toBe(1);
    expect(acceptance.receipt).toBeNull();
    expect(acceptance.receiptState).toBe('none');
    const shown = await show(repository.path, account.runId);
    expect(shown.run.exitCode).toBe(1);
    expect(shown.account.outcome).toBe('failed');
    expect(shown.account.attemptOutcome).toBe('completed');
    expect(shown.account.outcomeFrom).toMatchObject({ record: 'acceptance' });
    expect(shown.account.providerClaim).toMatchObject({ status: 'success', isError: false });
    expect(shown.account.acceptance).toMatchObject({ verdict: 'failed', reason: 'check-failed', receipt: null });
  });

  it('scenario refuse is not-attempted / attempt-refused, with the refusal count (R13.1)', async () => {
    const repository = await repositoryWithSuite(targets, { checks: ['true'] });
    const { account } = await runFixture(repository.path, 'scenario: refuse');
    const { run, acceptance } = await accept(repository.path, account.runId);
    expect(run.exitCode).toBe(1);
    expect(acceptance).toMatchObject({ verdict: 'not-attempted', reason: 'attempt-refused', attemptRefusalCount: 1, checks: [], receipt: null });
  });

  it('a check that hangs is killed at --check-deadline with its descendants: no-acceptance, the unrun checks counted (R13.3, R7.3)', async () => {
    // Inside the boundary's PID namespace the check sees its own pids, not the host's: the
    // descendant is found on the host by a marker in its command line instead.
    const marker = `statecraft-hang-${randomUUID()}`;
    const hang =
      "import { spawn } from 'node:child_process';\n" +
      `const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 600000)', '${marker}'], { detached: true, stdio: 'ignore' });\n` +
      'child.unref();\nprocess.stdout.write(`${child.pid}\\n`);\nsetInterval(() => {}, 60000);\n';
    const repository = await repositoryWithSuite(targets, { checks: ['node hang.mjs', 'true', 'true'] }, { 'hang.mjs': hang });
    const { account } = await runFixture(repository.path, writePrompt('write', 'answer.txt', 'forty-two'));
    const started = Date.now();
    const accepting = startStatecraft(['accept', repository.path, account.runId, '--json', '--check-deadline', '2s'], home());
    let seen: number[] = [];
    for (let waited = 0; waited < 20_000 && seen.length === 0; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      seen = processesWithArgument(marker);
    }
    // The test can fail: the descendant was there on the host while the check ran.
    expect(seen.length).toBeGreaterThan(0);
    const run = await finishedRun(accepting);
    const acceptance = parseJson<Acceptance>(run);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(run.exitCode).toBe(1);
    expect(acceptance).toMatchObject({ verdict: 'no-acceptance', reason: 'check-timed-out', checksNotRun: 3, receipt: null });
    expect(acceptance.checks).toHaveLength(1);
    expect(acceptance.checks[0]).toMatchObject({ command: 'node hang.mjs', timedOut: true, exitCode: null });
    expect(acceptance.checks[0]?.durationMs).toBeGreaterThanOrEqual(2000);
    expect(Number(readFileSync(acceptance.checks[0]?.stdout.path ?? '', 'utf8').trim())).toBeGreaterThan(0);
    // The checks not reached left no output file.
    expect(readdirSync(dirname(acceptance.checks[0]?.stdout.path ?? '')).sort()).toEqual(['check-1.stderr', 'check-1.stdout']);
    // The PID namespace's teardown is asynchronous: give it a generous window.
    const alive = async () => (await Promise.all(seen.map((pid) => isAlive(pid)))).some(Boolean);
    for (let waited = 0; waited < 5000 && (await alive()); waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await alive()).toBe(false);
    expect(processesWithArgument(marker)).toEqual([]);
  });

  it('a candidate that edits a path in the authority set is authority-change though its suite passes, with no receipt (R13.5)', async () => {
    const repository = await repositoryWithSuite(targets, { checks: ['true'], authority: ['tests/'] }, { 'tests/check.txt': 'strict\n' });
    const { account } = await runFixture(repository.path, writePrompt('write', 'tests/check.txt', 'lenient'));
    const { run, acceptance } = await accept(repository.path, account.runId);
    expect(run.exitCode).toBe(1);
    expect(acceptance.verdict).toBe('authority-change');
    expect(acceptance.authority.touched).toEqual(['tests/check.txt']);
    expect(acceptance.checks.map((check) => check.exitCode)).toEqual([0]);
    expect(acceptance.receipt).toBeNull();
    expect(acceptance.receiptFile).toBe('none');
  });

  it('a check that writes into the tree makes the acceptance interrupted, naming the dirty path (R13.3)', async () => {
    const repository = await repositoryWithSuite(targets, { checks: ['touch made-by-the-check.txt'] });
    const { account } = await runFixture(repository.path, writePrompt('write', 'answer.txt', 'forty-two'));
    const { run, acceptance } = await accept(repository.path, account.runId);
    expect(run.exitCode).toBe(1);
    expect(acceptance).toMatchObject({
      verdict: 'interrupted',
      reason: 'tree-dirty',
      afterSuite: { headMoved: false, dirtyPaths: ['made-by-the-check.txt'] },
      receipt: null,
    });
    expect(acceptance.explanation).toContain('made-by-the-check.txt');
  });

  it("the suite is read at the base: a suite changed in the operator's working tree (and committed on main) after the base is not the one that runs (R13.3)", async () => {
    const repository = await repositoryWithSuite(targets, { checks: [ANSWER_CHECK] });
    const { account } = await runFixture(repository.path, writePrompt('write', 'answer.txt', 'forty-two'));
    // After the base: the operator's main moves to a suite that would fail, and the working tree to another.
    await writeFiles(repository, { '.statecraft/environment.json': JSON.stringify({ project: { commands: ['false'] }, acceptance: { checks: ['false'] } }) });
    await repository.git('commit', '--quiet', '-am', 'a stricter suite, after the base');
    await writeFiles(repository, { '.statecraft/environment.json': JSON.stringify({ acceptance: { checks: ['false', 'false'] } }) });
    const { run, acceptance } = await accept(repository.path, account.runId);
    expect(run.exitCode).toBe(0);
    expect(acceptance.verdict).toBe('accepted');
    expect(acceptance.checks.map((check) => check.command)).toEqual([ANSWER_CHECK]);
  });

  it('moving the run branch past the candidate makes its receipt read stale (R13.6)', async () => {
    const repository = await repositoryWithSuite(targets, { checks: [ANSWER_CHECK] });
    // The agent's own commit needs the boundary off: inside it the operator's .git is read-only (R12).
    const { account } = await runFixture(repository.path, writePrompt('write-commit', 'answer.txt', 'forty-two'), '--boundary', 'none');
    const { acceptance } = await accept(repository.path, account.runId);
    expect(acceptance.receiptState).toBe('current');
    expect(acceptance.candidate).toMatchObject({ madeBy: 'agent' });
    expect((await show(repository.path, account.runId)).account.acceptance).toMatchObject({ verdict: 'accepted', receiptState: 'current' });
    await writeFiles(repository, {});
    await repository.git('-C', account.workspace, 'commit', '--quiet', '--allow-empty', '-m', 'a later commit on the run branch');
    const shown = await show(repository.path, account.runId);
    expect(shown.account.acceptance).toMatchObject({ verdict: 'accepted', receiptState: 'stale' });
  });

  it('a run with no suite at the base gets no-acceptance (no-suite), never a pass (R13.4)', async () => {
    const repository = await targets.fresh();
    const { account } = await runFixture(repository.path, writePrompt('write', 'answer.txt', 'forty-two'));
    const { run, acceptance } = await accept(repository.path, account.runId);
    expect(run.exitCode).toBe(1);
    expect(acceptance).toMatchObject({ verdict: 'no-acceptance', reason: 'no-suite', receipt: null });
  });

  it("the checks' sandbox, set up while the suite is read, leaves no TMPDIR and no check worktree behind, whether a suite ran or none was found (R13.3)", async () => {
    const temporary = mkdtempSync(join(tmpdir(), 'statecraft-accept-tmp-'));
    try {
      const judged = async (repository: string, runId: string) =>
        runStatecraft(['accept', repository, runId, '--json'], { ...home(), env: { TMPDIR: temporary }, timeoutMs: 120_000 });
      const leftBehind = (repository: string) => [
        ...readdirSync(temporary),
        ...(existsSync(join(repository, '.statecraft', 'state', 'checks')) ? readdirSync(join(repository, '.statecraft', 'state', 'checks')) : []),
      ];
      const withSuite = await repositoryWithSuite(targets, { checks: [ANSWER_CHECK] });
      const passing = await runFixture(withSuite.path, writePrompt('write', 'answer.txt', 'forty-two'));
      const accepted = await judged(withSuite.path, passing.account.runId);
      expect(parseJson<Acceptance>(accepted).verdict).toBe('accepted');
      expect(leftBehind(withSuite.path)).toEqual([]);
      const withoutSuite = await targets.fresh();
      const unjudged = await runFixture(withoutSuite.path, writePrompt('write', 'answer.txt', 'forty-two'));
      const noSuite = await judged(withoutSuite.path, unjudged.account.runId);
      expect(parseJson<Acceptance>(noSuite)).toMatchObject({ verdict: 'no-acceptance', reason: 'no-suite' });
      expect(leftBehind(withoutSuite.path)).toEqual([]);
    } finally {
      rmSync(temporary, { recursive: true, force: true });
    }
  });

  it('accept refuses a run that does not exist, exit 2, appending nothing', async () => {
    const repository = await repositoryWithSuite(targets, { checks: ['true'] });
    const run = await runStatecraft(['accept', repository.path, '20261130T000000Z-0a0b0c', '--json'], home());
    expect(run.exitCode).toBe(2);
    expect(parseJson<{ refused: { reason: string } }>(run).refused.reason).toBe('unknown-run');
    expect(existsSync(repository.path)).toBe(true);
  });
});

describe('statecraft run --accept judges in the same invocation (R13, issue 12 item 7)', () => {
  it('run --accept --json carries the acceptance, exit 0 when accepted and 1 when failed', async () => {
    const repository = await repositoryWithSuite(targets, { checks: [ANSWER_CHECK] });
    const passing = await runFixture(repository.path, writePrompt('write', 'answer.txt', 'forty-two'), '--accept');
    expect(passing.run.exitCode).toBe(0);
    expect(passing.account.acceptance).toMatchObject({ verdict: 'accepted', receiptState: 'current' });
    const failing = await runFixture(repository.path, writePrompt('write', 'answer.txt', 'nope'), '--accept');
    expect(failing.run.exitCode).toBe(1);
    expect(failing.account.outcome).toBe('failed');
    expect(failing.account.acceptance).toMatchObject({ verdict: 'failed' });
    const list = await runStatecraft(['run', 'list', repository.path, '--json'], home());
    expect(parseJson<{ attempts: { acceptance: string; outcome: string }[] }>(list).attempts.map((attempt) => [attempt.outcome, attempt.acceptance])).toEqual([
      ['completed', 'accepted'],
      ['failed', 'failed'],
    ]);
  });

  it('write-outside leaves nothing in the candidate: the attempt changed nothing, so nothing is judged; a retry that changes a tracked file is judged over the candidate alone, the outside write unseen (R13.3, R13.2)', async () => {
    const repository = await repositoryWithSuite(targets, { checks: [ANSWER_CHECK] });
    // A write outside the workspace is possible only without the boundary (R12).
    const { run, account } = await runFixture(repository.path, writePrompt('write-outside', 'answer.txt', 'forty-two'), '--accept', '--boundary', 'none');
    expect(run.exitCode).toBe(1);
    expect(account.acceptance).toMatchObject({
      verdict: 'not-attempted',
      reason: 'attempt-changed-nothing',
      checks: [],
      candidate: { madeBy: 'earlier', changedPaths: [] },
    });
    // A retry that changes a tracked file is judged: the check runs over the candidate's bytes, and
    // the answer written beside the workspace is not among them (grep: no such file, exit 2).
    const retried = await runFixture(
      repository.path,
      writePrompt('write', 'note.txt', 'unrelated'),
      '--accept',
      '--boundary',
      'none',
      '--retry',
      account.runId,
    );
    expect(retried.run.exitCode, retried.run.stderr).toBe(1);
    expect(retried.account.acceptance).toMatchObject({ verdict: 'failed', reason: 'check-failed', checks: [{ command: ANSWER_CHECK, exitCode: 2 }] });
  });
});
