import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// R13.6, R8.4: a receipt kept when the chain's append then fails (here `chattr +i` on the chain
// between the two writes) names no record; left unread, the next judgement of the attempt would
// write into the same acceptance-1/ beside it.

const targets = useTestTargets({ sharedRepository: false });
const home = () => ({ home: targets.home.path });

interface Finding {
  kind: string;
  path: string;
  message: string;
}

/**
 * An accepted judgement whose append fails after its receipt was kept: the judge runs under a
 * per-file size limit of the chain's current size (prlimit --fsize, as accept-output-not-kept
 * does), so the receipt and the check outputs, smaller, are written and the append is refused
 * whole (EFBIG), leaving no torn line.
 */
async function receiptLeftByAFailedAppend() {
  const repository = await repositoryWithSuite(targets, { checks: ['true'] });
  const run = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', 'answer.txt', 'x'), '--json'], home());
  expect(run.exitCode).toBe(0);
  const account = parseJson<{ runId: string; records: { chain: string } }>(run);
  const chain = account.records.chain;
  const accepting = await runStatecraft(['accept', repository.path, account.runId, '--json'], {
    ...home(),
    timeoutMs: 120_000,
    fileSizeLimit: statSync(chain).size,
  });
  expect(accepting.exitCode).toBe(4);
  expect(parseJson<{ failed: { message: string } }>(accepting).failed.message).toContain('no record names it');
  const left = join(dirname(chain), 'attempts', account.runId, '1', 'acceptance-1');
  expect(existsSync(join(left, 'receipt.json'))).toBe(true);
  return { repository, runId: account.runId, left, receipt: readFileSync(join(left, 'receipt.json'), 'utf8') };
}

/** doctor's findings of unrecorded acceptance files in one attempt's directory: the file's tests share a product home. */
const doctor = async (attemptDirectory: string) => {
  const run = await runStatecraft(['doctor', '--json'], home());
  const findings = parseJson<{ findings: Finding[] }>(run).findings;
  return {
    exitCode: run.exitCode,
    found: findings.filter((finding) => finding.kind === 'unrecorded-acceptance-files' && finding.path.startsWith(`${attemptDirectory}/`)),
  };
};

describe('a receipt kept when the acceptance record could not be appended (R13.6, R8.4)', () => {
  it('is a doctor finding naming its directory, exit 1', async () => {
    const { left } = await receiptLeftByAFailedAppend();
    const { exitCode, found } = await doctor(dirname(left));
    expect(exitCode).toBe(1);
    expect(found).toEqual([expect.objectContaining({ path: left })]);
    expect(found[0]?.message).toContain('receipt.json');
    expect(found[0]?.message).toContain('vouches for nothing');
  });

  it('is never written over: the next judgement goes into a new directory, and the receipt left is still named by doctor', async () => {
    const { repository, runId, left, receipt } = await receiptLeftByAFailedAppend();
    const again = await runStatecraft(['accept', repository.path, runId, '--json'], { ...home(), timeoutMs: 120_000 });
    expect(again.exitCode).toBe(0);
    const acceptance = parseJson<{ verdict: string; receiptFile: { path: string }; checks: { stdout: { path: string } }[] }>(again);
    expect(acceptance.verdict).toBe('accepted');
    const judgedInto = join(dirname(left), 'acceptance-2');
    expect(acceptance.receiptFile.path).toBe(join(judgedInto, 'receipt.json'));
    expect(dirname(acceptance.checks[0]?.stdout.path ?? '')).toBe(judgedInto);
    expect(readFileSync(join(left, 'receipt.json'), 'utf8')).toBe(receipt);
    const { found } = await doctor(dirname(left));
    expect(found.map((finding) => finding.path)).toEqual([left]);
  });
});
