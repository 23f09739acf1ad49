import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFiles, writePrompt } from '../../fixtures/acceptance-repository.js';
import { useTestTargets, type SampleRepository } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// R13.3, R12: acceptance checks are code from the repository, as untrusted as an agent. Each runs
// inside the same evidence boundary an adapter gets: a hostile check that tries to read the chain,
// append to it and forge a receipt is denied; the same check with `--boundary none` succeeds in
// every move, which proves each assertion can fail.

interface Acceptance {
  verdict: string;
  reason: string;
  checks: { command: string; exitCode: number | null; stdout: { path: string } }[];
  boundary: 'not-recorded' | { mechanism: string; probe: 'not-run' | { check: string; held: boolean }[]; profile?: { hidden: { role: string }[] } };
  receipt: null | { boundary?: { mechanism: string; profileDigest: string } };
}

const targets = useTestTargets({ sharedRepository: false });
const home = () => ({ home: targets.home.path });
// The judged attempt changes something: one that changed nothing is not judged (attempt-changed-nothing, R13.2).
const SOME_WORK = writePrompt('write', 'work.txt', 'some work');

/** One concluded run on a fresh repository: a chain worth attacking, and where it lives. */
async function seededTarget(): Promise<{ repository: SampleRepository; chain: string; targetDirectory: string }> {
  const repository = await targets.fresh();
  const first = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], home());
  expect(first.exitCode).toBe(0);
  const chain = parseJson<{ records: { chain: string } }>(first).records.chain;
  return { repository, chain, targetDirectory: dirname(chain) };
}

/** Commits a suite of one check (`sh hostile.sh`) that tries each move and reports it, then exits 0. */
async function commitHostileSuite(repository: SampleRepository, moves: { chain: string; receipt: string }): Promise<void> {
  const script = [
    `chain='${moves.chain}'`,
    `receipt='${moves.receipt}'`,
    'if cat "$chain" > /dev/null 2>&1; then echo "read: succeeded"; else echo "read: denied"; fi',
    `if printf '%s\\n' '{"kind":"forged"}' >> "$chain" 2> /dev/null; then echo "append: succeeded"; else echo "append: denied"; fi`,
    `if printf '%s\\n' '{"kind":"statecraft-receipt","signature":"unsigned"}' > "$receipt" 2> /dev/null; then echo "write-receipt: succeeded"; else echo "write-receipt: denied"; fi`,
    'exit 0',
    '',
  ].join('\n');
  const declaration = { project: { commands: ['sh'] }, acceptance: { checks: ['sh hostile.sh'] } };
  await writeFiles(repository, { 'hostile.sh': script, '.statecraft/environment.json': `${JSON.stringify(declaration, null, 2)}\n` });
  await repository.git('add', '-A');
  await repository.git('commit', '--quiet', '-m', 'a hostile acceptance check');
}

/** Runs an attempt over the hostile suite's base, then judges it with or without the boundary. */
async function attack(boundary: 'bwrap' | 'none') {
  const where = await seededTarget();
  const receipt = join(where.targetDirectory, 'forged-receipt.json');
  await commitHostileSuite(where.repository, { chain: where.chain, receipt });
  const run = await runStatecraft(['run', where.repository.path, '--adapter', 'fixture', '--prompt', SOME_WORK, '--json'], home());
  expect(run.exitCode).toBe(0);
  const runId = parseJson<{ runId: string }>(run).runId;
  const before = readFileSync(where.chain);
  const accepted = await runStatecraft(['accept', where.repository.path, runId, '--json', '--boundary', boundary], { ...home(), timeoutMs: 120_000 });
  // The check's report is kept beside the chain whatever became of the acceptance's own append.
  const report = readFileSync(join(where.targetDirectory, 'attempts', runId, '1', 'acceptance-1', 'check-1.stdout'), 'utf8');
  return { where, receipt, before, accepted, report };
}

describe('a hostile acceptance check runs inside the evidence boundary (R13.3, R12)', () => {
  it('is denied reading the chain, appending to it and writing a receipt; the chain verifies and the boundary is recorded', async () => {
    const { where, receipt, before, accepted, report } = await attack('bwrap');
    expect(report).toBe('read: denied\nappend: denied\nwrite-receipt: denied\n');
    expect(accepted.exitCode).toBe(0);
    const acceptance = parseJson<Acceptance>(accepted);
    expect(acceptance.verdict).toBe('accepted');
    if (acceptance.boundary === 'not-recorded' || acceptance.boundary.probe === 'not-run') throw new Error('no boundary recorded');
    expect(acceptance.boundary.mechanism).toBe('bwrap');
    expect(acceptance.boundary.probe.every((check) => check.held)).toBe(true);
    // The homes are hidden first (their roles; which homes depends on the machine), then what the checks must not read.
    const hidden = acceptance.boundary.profile?.hidden.map((entry) => entry.role) ?? [];
    expect(hidden).toContain('operator-home');
    expect(hidden.filter((role) => role !== 'operator-home' && role !== 'other-home')).toEqual(['product-home', 'agent-workspaces']);
    expect(acceptance.receipt?.boundary?.mechanism).toBe('bwrap');
    expect(existsSync(receipt)).toBe(false);
    // Append-only: the chain as it was is a prefix of the chain now, and every link verifies.
    expect(readFileSync(where.chain).subarray(0, before.length).equals(before)).toBe(true);
    expect(readFileSync(where.chain, 'utf8')).not.toContain('"kind":"forged"');
    expect((await runStatecraft(['run', 'list', where.repository.path, '--json'], home())).exitCode).toBe(0);
  });

  it('with --boundary none the same check reads the chain, appends a forged record and writes a receipt: the boundary is what denied them', async () => {
    const { where, receipt, accepted, report } = await attack('none');
    expect(report).toBe('read: succeeded\nappend: succeeded\nwrite-receipt: succeeded\n');
    expect(existsSync(receipt)).toBe(true);
    expect(readFileSync(where.chain, 'utf8')).toContain('"kind":"forged"');
    // The forged line breaks the chain: the acceptance cannot be appended, and run list refuses.
    expect(accepted.exitCode).not.toBe(0);
    expect((await runStatecraft(['run', 'list', where.repository.path, '--json'], home())).exitCode).toBe(2);
  });

  it('records --boundary none on the acceptance when no check attacks anything', async () => {
    const repository = await targets.fresh();
    await writeFiles(repository, {
      '.statecraft/environment.json': `${JSON.stringify({ project: { commands: ['true'] }, acceptance: { checks: ['true'] } })}\n`,
    });
    await repository.git('add', '-A');
    await repository.git('commit', '--quiet', '-m', 'a trivial suite');
    const run = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', SOME_WORK, '--json'], home());
    const runId = parseJson<{ runId: string }>(run).runId;
    const accepted = await runStatecraft(['accept', repository.path, runId, '--json', '--boundary', 'none'], home());
    expect(accepted.exitCode).toBe(0);
    const acceptance = parseJson<Acceptance>(accepted);
    expect(acceptance.boundary).toMatchObject({ mechanism: 'none', probe: 'not-run' });
    expect(acceptance.receipt?.boundary).toEqual({ mechanism: 'none', version: 'not-applicable', profileDigest: 'not-applicable' });
  });

  it("lets a check read git (status, diff, log) inside the boundary, while the repository's .git stays read-only: git add is refused", async () => {
    const repository = await targets.fresh();
    const checks = ['git status --porcelain', 'git diff --exit-code HEAD', 'git log -1 --format=%H', 'git add --all'];
    await writeFiles(repository, { '.statecraft/environment.json': `${JSON.stringify({ project: { commands: ['git'] }, acceptance: { checks } })}\n` });
    await repository.git('add', '-A');
    await repository.git('commit', '--quiet', '-m', 'a suite that uses git');
    const run = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', SOME_WORK, '--json'], home());
    const { runId, candidate } = parseJson<{ runId: string; candidate: { commit: string } }>(run);
    const accepted = await runStatecraft(['accept', repository.path, runId, '--json'], home());
    const acceptance = parseJson<Acceptance & { checks: { stderr: { path: string } }[] }>(accepted);
    expect(acceptance.checks.map((check) => check.exitCode)).toEqual([0, 0, 0, 128]);
    expect(readFileSync(acceptance.checks[2]?.stdout.path ?? '', 'utf8').trim()).toBe(candidate.commit);
    expect(readFileSync(acceptance.checks[3]?.stderr.path ?? '', 'utf8')).toContain('Read-only file system');
    expect(acceptance).toMatchObject({ verdict: 'failed', reason: 'check-failed' });
  });

  it("refuses the acceptance (exit 2) when the probe finds the checks' profile broken, running no check and appending nothing; its worktree is removed", async () => {
    const repository = await targets.fresh();
    const declaration = { project: { commands: ['touch'] }, acceptance: { checks: ['touch ran.txt'] } };
    await writeFiles(repository, { '.statecraft/environment.json': `${JSON.stringify(declaration)}\n` });
    await repository.git('add', '-A');
    await repository.git('commit', '--quiet', '-m', 'a suite that leaves a trace');
    const run = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', SOME_WORK, '--json'], home());
    const account = parseJson<{ runId: string; records: { chain: string } }>(run);
    const before = readFileSync(account.records.chain);
    // Test-only: a writable bind over the product home undoes its hiding, which the probe must catch.
    const refused = await runStatecraft(['accept', repository.path, account.runId, '--json'], {
      ...home(),
      env: { STATECRAFT_BOUNDARY_TEST_BIND: targets.home.path },
    });
    expect(refused.exitCode).toBe(2);
    const answer = parseJson<{ refused: { reason: string; message: string } }>(refused).refused;
    expect(answer.reason).toBe('boundary');
    expect(answer.message).toContain('canary-by-path');
    expect(answer.message).toContain('no check was run');
    expect(readFileSync(account.records.chain).equals(before)).toBe(true);
    expect(existsSync(join(dirname(account.records.chain), 'attempts', account.runId, '1', 'acceptance-1'))).toBe(false);
    expect(readdirSync(join(repository.path, '.statecraft', 'state', 'checks'))).toEqual([]);
    // The control: the same accept without the bad bind runs the check inside the boundary.
    const control = await runStatecraft(['accept', repository.path, account.runId, '--json'], home());
    expect(parseJson<Acceptance>(control)).toMatchObject({ verdict: 'interrupted', reason: 'tree-dirty' });
  });
});
