import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acceptUnderWay, repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

const targets = useTestTargets({ sharedRepository: false });

// A check that prints its pid and its TMPDIR and lives 30 s at most, so nothing it leaves outlives the test for long.
const SLOW_CHECK = 'process.stdout.write(`${process.pid} ${process.env.TMPDIR}\\n`);\nsetTimeout(() => process.exit(0), 30000);\n';

describe('kill -9 of statecraft during a check (R8.4, R13)', () => {
  it("leaves a chain that reads, and a later accept appends its acceptance and removes the check worktree and the checks' TMPDIR the dead judge left", async () => {
    const repository = await repositoryWithSuite(targets, { checks: ['node slow.mjs'] }, { 'slow.mjs': SLOW_CHECK });
    const run = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', 'answer.txt', 'x'), '--json'], {
      home: targets.home.path,
    });
    const account = parseJson<{ runId: string; records: { chain: string } }>(run);
    const { judging: accepting, firstLine } = await acceptUnderWay(repository, targets.home.path, account);
    const [pid, temporaryDirectory = ''] = firstLine.split(' ');
    expect(pid).toMatch(/^\d+$/);
    expect(temporaryDirectory).toMatch(/\/statecraft-checks-/);
    // A racing accept is refused while the judge lives, and takes nothing of its.
    const racing = await runStatecraft(['accept', repository.path, account.runId, '--json'], { home: targets.home.path });
    expect(parseJson<{ refused: { reason: string } }>(racing).refused.reason).toBe('live-attempt');
    expect(existsSync(temporaryDirectory)).toBe(true);
    accepting.kill('SIGKILL');
    const killed = await accepting;
    expect(killed.signal).toBe('SIGKILL');

    const shown = await runStatecraft(['run', 'show', repository.path, account.runId, '--json'], { home: targets.home.path });
    expect(shown.exitCode).toBe(0);
    expect(parseJson<{ acceptance: string }>(shown).acceptance).toBe('not-recorded');
    // kill -9 runs no cleanup: the check's worktree is left, registered with git.
    const checks = join(repository.path, '.statecraft', 'state', 'checks');
    const left = readdirSync(checks).filter((name) => !name.endsWith('.owner.json'));
    expect(left).toHaveLength(1);
    expect(await repository.git('worktree', 'list', '--porcelain')).toContain(join(checks, left[0] ?? ''));
    // And the checks' TMPDIR, outside the target, where nothing of statecraft's would look for it but by its worktree's name.
    expect(existsSync(temporaryDirectory)).toBe(true);

    // The dead supervisor's lock is taken over; this time the check is held to a short deadline.
    const again = await runStatecraft(['accept', repository.path, account.runId, '--json', '--check-deadline', '1s'], { home: targets.home.path });
    expect(again.exitCode).toBe(1);
    expect(parseJson<{ verdict: string; reason: string }>(again)).toMatchObject({ verdict: 'no-acceptance', reason: 'check-timed-out' });
    const listed = await runStatecraft(['run', 'list', repository.path, '--json'], { home: targets.home.path });
    expect(listed.exitCode).toBe(0);
    expect(parseJson<{ attempts: { acceptance: string }[] }>(listed).attempts.map((attempt) => attempt.acceptance)).toEqual(['no-acceptance']);
    // The later accept removed the dead judge's worktree (and its own), and git forgot both.
    expect(readdirSync(checks)).toEqual([]);
    expect(await repository.git('worktree', 'list', '--porcelain')).not.toContain(checks);
    expect(existsSync(temporaryDirectory)).toBe(false);
  });
});

describe('doctor re-digests receipts and check outputs (issue 12 item 7)', () => {
  it('an altered receipt is a finding naming the file, exit 1', async () => {
    const repository = await repositoryWithSuite(targets, { checks: ['true'] });
    const run = await runStatecraft(
      ['run', repository.path, '--adapter', 'fixture', '--accept', '--prompt', writePrompt('write', 'answer.txt', 'x'), '--json'],
      { home: targets.home.path },
    );
    const receiptFile = parseJson<{ acceptance: { receiptFile: { path: string } } }>(run).acceptance.receiptFile.path;
    const clean = await runStatecraft(['doctor', '--json'], { home: targets.home.path });
    expect(parseJson<{ findings: { kind: string }[] }>(clean).findings.filter((finding) => finding.kind === 'altered-acceptance-evidence')).toEqual([]);
    writeFileSync(receiptFile, readFileSync(receiptFile, 'utf8').replace('"unsigned"', '"signed-by-me"'));
    const doctor = await runStatecraft(['doctor', '--json'], { home: targets.home.path });
    expect(doctor.exitCode).toBe(1);
    expect(parseJson<{ findings: { kind: string; path: string }[] }>(doctor).findings).toContainEqual(
      expect.objectContaining({ kind: 'altered-acceptance-evidence', path: receiptFile }),
    );
  });
});
