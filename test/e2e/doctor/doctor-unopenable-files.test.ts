import { execFile } from 'node:child_process';
import { rm, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { findingsAbout, type DoctorExamination } from '../../fixtures/doctor-findings.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// An acceptance's check output replaced by a FIFO, or its receipt
// by a link to /dev/zero, and doctor never ended (a plain open waits for a FIFO's writer; /dev/zero
// has no end). Every file statecraft keeps is now opened as a regular file only, and what stands
// there instead is named, at once.

const targets = useTestTargets({ sharedRepository: false });
const home = () => ({ home: targets.home.path });
const mkfifo = (path: string) => promisify(execFile)('mkfifo', [path]);

interface Judged {
  runId: string;
  records: { chain: string };
  acceptance: { verdict: string; receiptFile: { path: string }; checks: { stdout: { path: string } }[] };
}

/** An attempt judged accepted at once (`run --accept`). */
async function acceptedRun(): Promise<Judged> {
  const repository = await repositoryWithSuite(targets, { checks: ['grep -qx forty-two answer.txt'] });
  const run = await runStatecraft(
    ['run', repository.path, '--adapter', 'fixture', '--accept', '--prompt', writePrompt('write', 'answer.txt', 'forty-two'), '--json'],
    {
      ...home(),
      timeoutMs: 120_000,
    },
  );
  expect(run.exitCode).toBe(0);
  return parseJson<Judged>(run);
}

/** doctor with a deadline far below the test's: one that waits on a FIFO or reads /dev/zero is killed, and fails the test. */
async function doctorWithin20s() {
  const run = await runStatecraft(['doctor', '--json'], { ...home(), timeoutMs: 20_000 });
  expect(run.exitCode, `doctor did not end within 20 s (${run.stderr})`).toBe(1);
  return parseJson<DoctorExamination>(run);
}

describe('doctor meets a FIFO or a device where statecraft keeps a file, and names it at once', () => {
  it("an acceptance's check output replaced by a FIFO is altered-acceptance-evidence naming it as not a regular file (exit 1)", async () => {
    const judged = await acceptedRun();
    const stdout = judged.acceptance.checks[0]?.stdout.path ?? '';
    await rm(stdout);
    await mkfifo(stdout);
    try {
      const found = findingsAbout(await doctorWithin20s(), judged.records.chain);
      expect(found).toEqual([expect.objectContaining({ kind: 'altered-acceptance-evidence', path: stdout })]);
      expect(found[0]?.message).toContain(`the check-1.stdout kept by the acceptance of run ${judged.runId} attempt 1`);
      expect(found[0]?.message).toContain('is not a regular file');
    } finally {
      // The file's tests share a product home: a FIFO left here would hold every later doctor of it.
      await rm(stdout);
    }
  });

  it('a receipt replaced by a link to /dev/zero is altered-acceptance-evidence naming it as not a regular file (exit 1)', async () => {
    const judged = await acceptedRun();
    const receipt = judged.acceptance.receiptFile.path;
    await rm(receipt);
    await symlink('/dev/zero', receipt);
    try {
      const found = findingsAbout(await doctorWithin20s(), judged.records.chain);
      expect(found).toEqual([expect.objectContaining({ kind: 'altered-acceptance-evidence', path: receipt })]);
      expect(found[0]?.message).toContain('the receipt.json kept by the acceptance');
      expect(found[0]?.message).toContain('is not a regular file');
    } finally {
      await rm(receipt);
    }
  });

  it('a deleted receipt reads plainly: missing, where the record holds its digest', async () => {
    const judged = await acceptedRun();
    await rm(judged.acceptance.receiptFile.path);
    const found = findingsAbout(await doctorWithin20s(), judged.records.chain);
    expect(found).toEqual([expect.objectContaining({ kind: 'altered-acceptance-evidence' })]);
    expect(found[0]?.message).toContain('receipt.json kept by the acceptance of run');
    expect(found[0]?.message).toContain('is missing, where the acceptance record holds its digest');
  });

  it("a target's lock that is a FIFO is said to be one, on which run fails, not a stale lock the next run takes over", async () => {
    const judged = await acceptedRun();
    const lock = join(dirname(judged.records.chain), 'lock');
    await mkfifo(lock);
    try {
      const found = findingsAbout(await doctorWithin20s(), judged.records.chain);
      expect(found).toEqual([expect.objectContaining({ kind: 'home-unusable', path: lock })]);
      expect(found[0]?.message).toContain("the target's lock is not a regular file");
      expect(found[0]?.message).toContain('fails on it (exit 4)');
    } finally {
      await rm(lock);
    }
  });
});
