import { symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acceptUnderWay, repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { finishedRun, parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

const targets = useTestTargets({ sharedRepository: false });
const home = () => ({ home: targets.home.path });

/** Prints its pid, then waits 3 s and passes: the window in which the test plants its fault. */
const WAIT = 'process.stdout.write(`${process.pid}\\n`);\nsetTimeout(() => process.exit(0), 3000);\n';
/** Eight MiB on stdout, then exit 0: a check whose output is larger than the file it is kept in may grow. */
const FLOOD = "const block = 'x'.repeat(1024 * 1024);\nfor (let index = 0; index < 8; index += 1) process.stdout.write(block);\n";

describe('a check whose output cannot be kept beside the chain (R13.6, R8.4)', () => {
  it('is never accepted on digests of bytes the product home does not hold: exit 4 naming the output file', async () => {
    const repository = await repositoryWithSuite(targets, { checks: ['node flood.mjs'] }, { 'flood.mjs': FLOOD });
    const run = await runStatecraft(
      ['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', 'answer.txt', 'forty-two'), '--json'],
      home(),
    );
    expect(run.exitCode).toBe(0);
    const runId = parseJson<{ runId: string }>(run).runId;
    // A per-file size limit of 2 MiB on the judge (prlimit --fsize), as the issue-9 tests make a full home.
    const accepted = await runStatecraft(['accept', repository.path, runId, '--json'], { ...home(), timeoutMs: 120_000, fileSizeLimit: 2 * 1024 * 1024 });
    expect(accepted.exitCode).toBe(4);
    const failed = parseJson<{ failed: { path: string; message: string } }>(accepted).failed;
    expect(failed.path).toMatch(/acceptance-1\/check-1\.stdout$/);
    expect(failed.message).toContain('node flood.mjs');
    expect(accepted.stderr).toContain(failed.path);
    // Nothing appended: the run's chain holds its intent and outcome only, and run show reads no acceptance.
    const shown = await runStatecraft(['run', 'show', repository.path, runId, '--json'], home());
    expect(parseJson<{ acceptance: unknown }>(shown).acceptance).toBe('not-recorded');
    // The check's worktree went with the judgement.
    expect(await repository.git('worktree', 'list', '--porcelain')).not.toContain('.statecraft/state/checks');
    // What was written of the output is left for doctor to name, saying why no record names it.
    const doctor = await runStatecraft(['doctor', '--json'], home());
    const found = parseJson<{ findings: { kind: string; path: string; message: string }[] }>(doctor).findings.filter(
      (finding) => finding.kind === 'unrecorded-acceptance-files' && finding.path === dirname(failed.path),
    );
    expect(found).toEqual([expect.objectContaining({ message: expect.stringContaining("a check's output") as unknown })]);
  });

  it('is not kept when its fsync fails, found after the checks that follow it ran: exit 4 naming the file, nothing appended', async () => {
    // Outputs are made durable behind the next check (run-suite.ts): the suite must still end on the failure.
    const repository = await repositoryWithSuite(targets, { checks: ['node wait.mjs', 'true', 'true', 'true'] }, { 'wait.mjs': WAIT });
    const run = await runStatecraft(
      ['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', 'answer.txt', 'forty-two'), '--json'],
      home(),
    );
    expect(run.exitCode).toBe(0);
    const account = parseJson<{ runId: string; records: { chain: string } }>(run);
    // The judge makes its outputs directory itself and never writes into one already there
    // (free-outputs-directory.ts): the fault is planted in it while the first check waits. The
    // second check's outputs are opened as the first starts, so the third's is the one planted.
    const { judging, firstLine } = await acceptUnderWay(repository, targets.home.path, account);
    expect(firstLine).toMatch(/^\d+$/);
    const outputs = join(dirname(account.records.chain), 'attempts', account.runId, '1', 'acceptance-1');
    // A character device takes the (empty) output but refuses fsync (EINVAL): a real fsync failure.
    await symlink('/dev/null', join(outputs, 'check-3.stderr'));
    const accepted = await finishedRun(judging);
    expect(accepted.exitCode).toBe(4);
    const failed = parseJson<{ failed: { path: string; message: string } }>(accepted).failed;
    expect(failed.path).toMatch(/acceptance-1\/check-3\.stderr$/);
    expect(failed.message).toContain('fsync');
    expect(failed.message).toContain('`true`');
    const shown = await runStatecraft(['run', 'show', repository.path, account.runId, '--json'], home());
    expect(parseJson<{ acceptance: unknown }>(shown).acceptance).toBe('not-recorded');
  });
});
