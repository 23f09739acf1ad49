import { describe, expect, it } from 'vitest';
import { repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { doctorOf, findingsAbout } from '../../fixtures/doctor-findings.js';
import { appendLinkedRecord, editChainAlone, readChainRecords, type ForgedRecord } from '../../fixtures/relink-chain.js';
import { useTestTargets, type SampleRepository } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// One correctly linked acceptance line appended for a failed
// attempt, a copy of another attempt's `accepted` record reusing its receipt and check outputs by
// path, turned the failed attempt into `accepted` in run show and run list; doctor found nothing.

const targets = useTestTargets({ sharedRepository: false });
const home = () => ({ home: targets.home.path });

interface Account {
  runId: string;
  outcome: string;
  records: { chain: string };
  acceptance: { verdict: string; receiptFile: { path: string } | 'none' } | 'not-recorded';
}
interface Shown extends Account {
  recordFindings: { kind: string; path: string; message: string }[];
}

/** A run judged at once (`run --accept`): the answer's account. */
async function judgedRun(repository: SampleRepository, text: string): Promise<Account> {
  const run = await runStatecraft(
    ['run', repository.path, '--adapter', 'fixture', '--accept', '--prompt', writePrompt('write', 'answer.txt', text), '--json'],
    {
      ...home(),
      timeoutMs: 120_000,
    },
  );
  return parseJson<Account>(run);
}

const show = (repository: SampleRepository, runId: string) => runStatecraft(['run', 'show', repository.path, runId, '--json'], home());

/** Two attempts of one repository: `failed` judged failed by its check, `accepted` judged accepted. */
async function failedAndAccepted() {
  const repository = await repositoryWithSuite(targets, { checks: ['grep -qx forty-two answer.txt'] });
  const failed = await judgedRun(repository, 'forty-one');
  const accepted = await judgedRun(repository, 'forty-two');
  expect([failed.outcome, accepted.outcome]).toEqual(['failed', 'completed']);
  return { repository, failed, accepted, chain: accepted.records.chain };
}

describe('doctor checks each acceptance record against what a judgement writes (R13.4, R13.6)', () => {
  it("an accepted verdict appended after a failed one, reusing another attempt's receipt and outputs by path: doctor and run show name the verdict after the final one, the evidence elsewhere and the other attempt it binds (exit 1)", async () => {
    const { repository, failed, accepted, chain } = await failedAndAccepted();
    expect(findingsAbout((await doctorOf(targets.home.path)).value, chain)).toEqual([]);
    const records = await readChainRecords(chain);
    const outcomeOfFailed = records.find(({ record }) => record.kind === 'outcome' && record.runId === failed.runId);
    const acceptanceOfAccepted = records.find(({ record }) => record.kind === 'acceptance' && record.runId === accepted.runId)?.record;
    if (outcomeOfFailed === undefined || acceptanceOfAccepted === undefined) throw new Error('the chain holds no such records');
    const receipt = acceptanceOfAccepted.receipt as ForgedRecord & { attempt: ForgedRecord };
    await appendLinkedRecord(chain, {
      ...acceptanceOfAccepted,
      runId: failed.runId,
      attempt: 1,
      outcome: outcomeOfFailed.digest,
      receipt: { ...receipt, attempt: { ...receipt.attempt, runId: failed.runId } },
    });
    const line = records.length + 1;
    // The forgery does not reach the account: a final verdict is the attempt's for good, as accept holds it (already-judged).
    const shownAfter = parseJson<Shown>(await show(repository, failed.runId));
    expect(shownAfter.outcome).toBe('failed');
    expect(shownAfter.acceptance).toMatchObject({ verdict: 'failed' });
    const listed = parseJson<{ attempts: { runId: string; outcome: string; acceptance: string }[] }>(
      await runStatecraft(['run', 'list', repository.path, '--json'], home()),
    ).attempts.find((attempt) => attempt.runId === failed.runId);
    expect(listed).toMatchObject({ outcome: 'failed', acceptance: 'failed' });

    const { run, value } = await doctorOf(targets.home.path);
    expect(run.exitCode).toBe(1);
    const found = findingsAbout(value, chain);
    expect(found.map((finding) => finding.kind).sort()).toEqual(['acceptance-disagrees-with-outcome', 'evidence-elsewhere', 'verdict-after-final-verdict']);
    const of = (kind: string) => found.find((finding) => finding.kind === kind)?.message ?? '';
    expect(of('verdict-after-final-verdict')).toContain(
      `run ${failed.runId} attempt 1: the acceptance record (${chain} line ${line}) records accepted (every-check-passed) after the final verdict failed (check-failed)`,
    );
    expect(of('evidence-elsewhere')).toContain(`the acceptance record (${chain} line ${line}) names its check-1.stdout at`);
    expect(of('evidence-elsewhere')).toContain(`/attempts/${accepted.runId}/1/acceptance-1/receipt.json`);
    expect(of('acceptance-disagrees-with-outcome')).toContain('its candidate');
    expect(of('acceptance-disagrees-with-outcome')).toContain('its receipt binds run');

    const showing = await show(repository, failed.runId);
    expect(showing.exitCode).toBe(1);
    expect(
      parseJson<Shown>(showing)
        .recordFindings.map((finding) => finding.kind)
        .sort(),
    ).toEqual(['acceptance-disagrees-with-outcome', 'evidence-elsewhere', 'verdict-after-final-verdict']);
    // The attempt whose files were borrowed is not the one found wanting.
    const lender = await show(repository, accepted.runId);
    expect(lender.exitCode).toBe(0);
    expect(parseJson<Shown>(lender).recordFindings).toEqual([]);
  });

  it('a receipt in the chain edited alone (relinked), its receipt.json left as it was: the record disagrees with the kept file, in doctor and run show (exit 1)', async () => {
    const { repository, accepted, chain } = await failedAndAccepted();
    await editChainAlone(chain, (record) => {
      if (record.kind === 'acceptance' && record.verdict === 'accepted') (record.receipt as ForgedRecord).qualification = 'qualified';
    });
    const receiptFile = (accepted.acceptance as { receiptFile: { path: string } }).receiptFile.path;

    const { run, value } = await doctorOf(targets.home.path);
    expect(run.exitCode).toBe(1);
    const found = findingsAbout(value, chain);
    expect(found).toEqual([expect.objectContaining({ kind: 'record-disagrees-with-kept-file', path: receiptFile })]);
    expect(found[0]?.message).toContain(`run ${accepted.runId} attempt 1: the acceptance record`);
    expect(found[0]?.message).toContain('receipt.qualification is "qualified" in the record, qualification is "unqualified" in the file');

    const showing = await show(repository, accepted.runId);
    expect(showing.exitCode).toBe(1);
    expect(parseJson<Shown>(showing).recordFindings).toEqual([expect.objectContaining({ kind: 'record-disagrees-with-kept-file', path: receiptFile })]);
  });
});
