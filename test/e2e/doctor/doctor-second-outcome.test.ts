import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { doctorOf, findingsAbout } from '../../fixtures/doctor-findings.js';
import { appendLinkedRecord, readChainRecords } from '../../fixtures/relink-chain.js';
import { useTestTargets, type SampleRepository } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// One correctly linked copy of a failed attempt's own outcome, appended, made
// run show and run list pair the attempt with the copy (the last outcome of each intent won): it
// read completed and never judged, the failed verdict gone, run show exit 0, doctor silent, while
// accept (which reads the first outcome) refused it as already judged. Every path in the copy is
// the attempt's own, so no other check saw it. run writes one outcome per intent.

const targets = useTestTargets({ sharedRepository: false });
const home = () => ({ home: targets.home.path });

interface Account {
  runId: string;
  outcome: string;
  records: { chain: string; outcome: { line: number } | 'not-recorded' };
  acceptance: { verdict: string } | 'not-recorded';
}
interface Shown extends Account {
  recordFindings: { kind: string; path: string; message: string }[];
}

/** A run judged at once (`run --accept`) whose check fails: its account, the verdict `failed`. */
async function failedRun(repository: SampleRepository): Promise<Account> {
  const run = await runStatecraft(
    ['run', repository.path, '--adapter', 'fixture', '--accept', '--prompt', writePrompt('write', 'answer.txt', 'forty-one'), '--json'],
    { ...home(), timeoutMs: 120_000 },
  );
  const account = parseJson<Account>(run);
  expect(account.outcome).toBe('failed');
  return account;
}

const show = (repository: SampleRepository, runId: string) => runStatecraft(['run', 'show', repository.path, runId, '--json'], home());

describe('one outcome per intent: a second is a finding, and every reader reads the first (R8.4, R13.4)', () => {
  it("a relinked copy of a failed attempt's own outcome appended: run show and run list still read failed, and doctor and run show name both outcome lines (exit 1)", async () => {
    const repository = await repositoryWithSuite(targets, { checks: ['grep -qx forty-two answer.txt'] });
    const failed = await failedRun(repository);
    const chain = failed.records.chain;
    const first = failed.records.outcome;
    if (first === 'not-recorded') throw new Error('the run recorded no outcome');
    const records = await readChainRecords(chain);
    const outcome = records.find(({ record }) => record.kind === 'outcome' && record.runId === failed.runId)?.record;
    const intentLine = records.findIndex(({ record }) => record.kind === 'intent' && record.runId === failed.runId) + 1;
    if (outcome === undefined) throw new Error('the chain holds no outcome of the run');
    await appendLinkedRecord(chain, outcome);
    const second = records.length + 1;

    const showing = await show(repository, failed.runId);
    expect(showing.exitCode).toBe(1);
    const shown = parseJson<Shown>(showing);
    expect(shown.outcome).toBe('failed');
    expect(shown.records.outcome).toMatchObject({ line: first.line });
    expect(shown.acceptance).toMatchObject({ verdict: 'failed' });
    expect(shown.recordFindings).toEqual([expect.objectContaining({ kind: 'second-outcome', path: chain })]);
    const listed = parseJson<{ attempts: { outcome: string; acceptance: string }[] }>(
      await runStatecraft(['run', 'list', repository.path, '--json'], home()),
    ).attempts;
    expect(listed.map((attempt) => [attempt.outcome, attempt.acceptance])).toEqual([['failed', 'failed']]);

    const { run, value } = await doctorOf(targets.home.path);
    expect(run.exitCode).toBe(1);
    const found = findingsAbout(value, chain);
    expect(found.map((finding) => finding.kind)).toEqual(['second-outcome']);
    expect(found[0]?.message).toContain(
      `run ${failed.runId} attempt 1: the outcome record (${chain} line ${second}) concludes the intent at line ${intentLine}, which the outcome at line ${first.line} already concluded`,
    );
    expect(shown.recordFindings[0]?.message).toBe(found[0]?.message);

    // accept read the first outcome all along: the verdict stands.
    const before = await readFile(chain, 'utf8');
    const accepting = await runStatecraft(['accept', repository.path, failed.runId, '--json'], { ...home(), timeoutMs: 120_000 });
    expect(accepting.exitCode).toBe(2);
    expect(parseJson<{ refused: { reason: string } }>(accepting).refused.reason).toBe('already-judged');
    expect(await readFile(chain, 'utf8')).toBe(before);
  });
});
