import { describe, expect, it } from 'vitest';
import { doctorSteps, findingsAbout, type FixtureAttempt } from '../../fixtures/doctor-findings.js';
import { appendLinkedRecord, readChainRecords } from '../../fixtures/relink-chain.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// An outcome record concludes its own intent: run writes it with the intent's digest, run id and
// attempt (conclude-attempt.ts). Before this check, an appended, correctly linked outcome that named
// no intent of the chain, or another attempt's intent under its own run id, was found by nothing:
// doctor exit 0, run show silent. run show and run list pair an outcome with its intent by the
// digest alone, accept by the digest and the run id, so such a record read as concluded to one
// reader and not to the other.

const targets = useTestTargets({ sharedRepository: false });
const steps = doctorSteps(() => targets.home.path);

interface Shown {
  outcome: string;
  recordFindings: { kind: string; path: string; message: string }[];
}

const show = async (repository: string, runId: string) => {
  const run = await runStatecraft(['run', 'show', repository, runId, '--json'], { home: targets.home.path });
  return { run, value: parseJson<Shown>(run) };
};

/** The outcome record of one attempt, as the chain holds it. */
async function outcomeOf(account: FixtureAttempt): Promise<{ record: Record<string, unknown>; line: number }> {
  const records = await readChainRecords(account.records.chain);
  const index = records.findIndex(({ record }) => record.kind === 'outcome' && record.runId === account.runId);
  const found = records[index];
  if (found === undefined) throw new Error(`the chain holds no outcome of ${account.runId}`);
  return { record: found.record, line: index + 1 };
}

describe('an outcome concludes its own intent, or it is a finding (R8.4)', () => {
  it('an appended outcome naming no intent of the chain: doctor and run show name it (exit 1), and the attempt it copies still reads as it did', async () => {
    const repository = await targets.fresh();
    const account = await steps.attempt(repository.path);
    const { chain } = account.records;
    const { record } = await outcomeOf(account);
    await appendLinkedRecord(chain, { ...record, intent: 'f'.repeat(64) });
    const line = (await readChainRecords(chain)).length;

    const { run, value } = await steps.doctor();
    expect(run.exitCode).toBe(1);
    const found = findingsAbout(value, chain);
    expect(found.map((finding) => finding.kind)).toEqual(['outcome-disagrees-with-intent']);
    expect(found[0]?.message).toBe(
      `run ${account.runId} attempt 1: the outcome record (${chain} line ${line}) names the intent ffffffffffff…, which no record before it is: ` +
        'statecraft writes an outcome for its own intent only, so no supervisor wrote this record (doctor repairs nothing)',
    );

    const shown = await show(repository.path, account.runId);
    expect(shown.run.exitCode).toBe(1);
    expect(shown.value.outcome).toBe('completed');
    expect(shown.value.recordFindings).toEqual(found);
  });

  it("an appended outcome naming another attempt's intent under its own run id: both attempts' run show and doctor name it, beside the second outcome it also is", async () => {
    const repository = await targets.fresh();
    const first = await steps.attempt(repository.path);
    const second = await steps.attempt(repository.path);
    const { chain } = second.records;
    const records = await readChainRecords(chain);
    const intentOfSecond = records.findIndex(({ record }) => record.kind === 'intent' && record.runId === second.runId) + 1;
    const { record } = await outcomeOf(second);
    // The second attempt's own outcome, relabelled as the first run's: its intent is still the second's.
    await appendLinkedRecord(chain, { ...record, runId: first.runId });
    const line = records.length + 1;

    const { run, value } = await steps.doctor();
    expect(run.exitCode).toBe(1);
    const found = findingsAbout(value, chain);
    expect(found.map((finding) => finding.kind).sort()).toEqual(['outcome-disagrees-with-intent', 'second-outcome']);
    const disagreement = found.find((finding) => finding.kind === 'outcome-disagrees-with-intent');
    expect(disagreement?.message).toBe(
      `run ${first.runId} attempt 1: the outcome record (${chain} line ${line}) concludes the intent at line ${intentOfSecond}, ` +
        `which is run ${second.runId} attempt 1's: statecraft writes an outcome for its own intent only, so no supervisor wrote this record ` +
        '(doctor repairs nothing)',
    );

    // The run it claims to be and the run whose intent it names each see it; only the latter has a second outcome.
    const shownFirst = await show(repository.path, first.runId);
    expect(shownFirst.run.exitCode).toBe(1);
    expect(shownFirst.value.recordFindings.map((finding) => finding.kind)).toEqual(['outcome-disagrees-with-intent']);
    const shownSecond = await show(repository.path, second.runId);
    expect(shownSecond.run.exitCode).toBe(1);
    expect(shownSecond.value.outcome).toBe('completed');
    expect(shownSecond.value.recordFindings.map((finding) => finding.kind).sort()).toEqual(['outcome-disagrees-with-intent', 'second-outcome']);
  });

  it("an appended outcome naming its run's intent under another attempt number is a finding too", async () => {
    const repository = await targets.fresh();
    const account = await steps.attempt(repository.path);
    const { chain } = account.records;
    const { record } = await outcomeOf(account);
    await appendLinkedRecord(chain, { ...record, attempt: 2 });
    const line = (await readChainRecords(chain)).length;

    const { run, value } = await steps.doctor();
    expect(run.exitCode).toBe(1);
    const found = findingsAbout(value, chain);
    expect(found.map((finding) => finding.kind).sort()).toEqual(['outcome-disagrees-with-intent', 'second-outcome']);
    expect(found.find((finding) => finding.kind === 'outcome-disagrees-with-intent')?.message).toContain(
      `run ${account.runId} attempt 2: the outcome record (${chain} line ${line}) concludes the intent at line 1, which is run ${account.runId} attempt 1's`,
    );
  });
});
