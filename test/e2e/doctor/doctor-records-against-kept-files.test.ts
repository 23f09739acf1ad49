import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomAdapter } from '../../fixtures/custom-adapter.js';
import { editChainAlone, type ForgedRecord } from '../../fixtures/relink-chain.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { doctorOf, findingsAbout, type DoctorExamination } from '../../fixtures/doctor-findings.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

interface Account {
  runId: string;
  attempt: number;
  cost: unknown;
  unverifiableRefusalAccount: boolean;
  records: { chain: string; intent: { line: number }; outcome: { line: number } };
  artifacts: { request: { path: string }; result: { path: string }; stream: { path: string } };
}

const targets = useTestTargets({ sharedRepository: false });

/** The fixture adapter without `structured-refusals`: preferring it degrades the attempt and makes its refusal account unverifiable (R2.3). */
let noRefusals: { executable: string; remove: () => Promise<void> };
beforeAll(async () => {
  noRefusals = await createCustomAdapter({ name: 'no-refusals', capabilities: ['tool-allowlist', 'turn-limit', 'hook-enforcement', 'cost-report'] });
});
afterAll(async () => {
  await noRefusals.remove();
});

const attempt = async (target: string, scenario: string, ...extra: string[]): Promise<Account> =>
  parseJson<Account>(await runStatecraft(['run', target, '--prompt', `scenario: ${scenario}`, '--json', ...extra], { home: targets.home.path }));
const doctor = () => doctorOf(targets.home.path);
/** The findings about one target's records: the file's tests share a product home. */
const findingsOf = (value: DoctorExamination, account: Account) => findingsAbout(value, account.records.chain);

/** Every record of the chain edited with `edit`, relinked and its checkpoint rewritten; every kept file left as it was. */
const launder = (account: Account, edit: (record: ForgedRecord) => void) => editChainAlone(account.records.chain, edit);

describe('doctor compares what the chain records with the kept files it verified by digest (R8.4)', () => {
  it('an honest attempt, degraded or not, agrees with its kept request and result: no finding', async () => {
    const target = await targets.fresh();
    const plain = await attempt(target.path, 'complete', '--adapter', 'fixture');
    const degraded = await attempt(
      target.path,
      'complete',
      '--adapter',
      noRefusals.executable,
      '--prefer',
      'structured-refusals',
      '--prefer',
      'workspace-write',
    );
    expect(degraded.unverifiableRefusalAccount).toBe(true);

    const { run, value } = await doctor();
    expect(findingsOf(value, plain)).toEqual([]);
    expect(run.exitCode).toBe(0);
  });

  it("a cost of unknown laundered into 0 in the chain alone (relinked) is a finding naming the outcome record's line, the run, the attempt and the field (exit 1)", async () => {
    const target = await targets.fresh();
    const account = await attempt(target.path, 'no-cost', '--adapter', 'fixture');
    expect(account.cost).toBe('unknown');
    await launder(account, (record) => {
      if (record.kind !== 'outcome') return;
      record.cost = 0;
      (record.result as ForgedRecord).cost = 0;
    });
    const listed = await runStatecraft(['run', 'list', target.path, '--json'], { home: targets.home.path });
    expect(listed.exitCode).toBe(0);

    const { run, value } = await doctor();
    expect(run.exitCode).toBe(1);
    const found = findingsOf(value, account);
    // The cost is the terminal event's: the kept stream gives "unknown" too.
    expect(found).toEqual([
      expect.objectContaining({ kind: 'outcome-disagrees-with-stream', path: account.artifacts.stream.path }),
      expect.objectContaining({ kind: 'record-disagrees-with-kept-file', path: account.artifacts.result.path }),
    ]);
    expect(found[1]?.message).toContain(`run ${account.runId} attempt 1`);
    expect(found[1]?.message).toContain(`outcome record (${account.records.chain} line ${account.records.outcome.line})`);
    expect(found[1]?.message).toContain('result.cost is 0 in the record, cost is "unknown" in the file');
    expect(found[0]?.message).toContain('result.cost is 0 in the record, cost is "unknown" in the stream');

    const human = await runStatecraft(['doctor'], { home: targets.home.path });
    expect(human.exitCode).toBe(1);
    expect(human.stdout).toContain('record-disagrees-with-kept-file');
  });

  it("a __proto__ key added to the recorded claim's detail in the chain alone is a finding: a key one side lacks is absent there, not its prototype", async () => {
    const target = await targets.fresh();
    const account = await attempt(target.path, 'complete', '--adapter', 'fixture');
    await launder(account, (record) => {
      if (record.kind !== 'outcome') return;
      const claim = (record.result as ForgedRecord).providerClaim as ForgedRecord;
      // Spread keeps the parsed `__proto__` an own key, as JSON.parse made it.
      claim.detail = { ...(JSON.parse('{"__proto__":{}}') as ForgedRecord), ...(claim.detail as ForgedRecord) };
    });
    const { run, value } = await doctor();
    expect(run.exitCode).toBe(1);
    const found = findingsOf(value, account);
    // The claim is the terminal event's: the kept stream's has no such key either.
    expect(found).toEqual([
      expect.objectContaining({ kind: 'outcome-disagrees-with-stream', path: account.artifacts.stream.path }),
      expect.objectContaining({ kind: 'record-disagrees-with-kept-file', path: account.artifacts.result.path }),
    ]);
    expect(found[1]?.message).toContain('result.providerClaim.detail.__proto__ is {} in the record, providerClaim.detail.__proto__ is absent in the file');
    expect(found[0]?.message).toContain('result.providerClaim.detail.__proto__ is {} in the record, providerClaim.detail.__proto__ is absent in the stream');
  });

  it('preferred and degraded capabilities emptied and the unverifiable refusal account cleared in the chain alone are findings naming each field, in doctor and in run show', async () => {
    const target = await targets.fresh();
    const account = await attempt(target.path, 'complete', '--adapter', noRefusals.executable, '--prefer', 'structured-refusals');
    expect(account.unverifiableRefusalAccount).toBe(true);
    const request = await readFile(account.artifacts.request.path, 'utf8');
    expect(request).toContain('structured-refusals');
    await launder(account, (record) => {
      if (record.kind === 'intent') {
        const capabilities = (record.posture as { capabilities: ForgedRecord }).capabilities;
        capabilities.requested = { required: [], preferred: [] };
        capabilities.degraded = [];
        capabilities.unverifiableRefusalAccount = false;
      }
      if (record.kind === 'outcome') {
        const result = record.result as ForgedRecord & { capabilities: ForgedRecord };
        result.capabilities.preferred = [];
        result.capabilities.degraded = [];
        result.unverifiableRefusalAccount = false;
      }
    });
    const showing = await runStatecraft(['run', 'show', target.path, account.runId, '--json'], { home: targets.home.path });
    const shown = parseJson<Account & { recordDisagreements: { record: string; file: string }[] }>(showing);
    expect(shown.unverifiableRefusalAccount).toBe(false);
    // run show makes doctor's comparison of the attempt it shows: the same three, and a finding.
    expect(showing.exitCode).toBe(1);
    expect(shown.recordDisagreements.map(({ record, file }) => `${record} ${file}`).sort()).toEqual(
      [`intent ${account.artifacts.request.path}`, `intent ${account.artifacts.result.path}`, `outcome ${account.artifacts.result.path}`].sort(),
    );

    const { run, value } = await doctor();
    expect(run.exitCode).toBe(1);
    const found = findingsOf(value, account);
    const against = (record: string, file: string) => found.find((finding) => finding.path === file && finding.message.includes(`the ${record} record`));
    const intentLine = `intent record (${account.records.chain} line ${account.records.intent.line})`;
    expect(against('intent', account.artifacts.request.path)?.message).toContain(intentLine);
    expect(against('intent', account.artifacts.request.path)?.message).toContain(
      'posture.capabilities.requested.preferred is [] in the record, capabilities.preferred is ["structured-refusals"] in the file',
    );
    const intentAgainstResult = against('intent', account.artifacts.result.path)?.message;
    expect(intentAgainstResult).toContain(intentLine);
    expect(intentAgainstResult).toContain('posture.capabilities.degraded is [] in the record, capabilities.degraded is ["structured-refusals"] in the file');
    expect(intentAgainstResult).toContain(
      'posture.capabilities.unverifiableRefusalAccount is false in the record, unverifiableRefusalAccount is true in the file',
    );
    const outcomeAgainstResult = against('outcome', account.artifacts.result.path)?.message;
    expect(outcomeAgainstResult).toContain(`outcome record (${account.records.chain} line ${account.records.outcome.line})`);
    expect(outcomeAgainstResult).toContain('result.unverifiableRefusalAccount is false in the record, unverifiableRefusalAccount is true in the file');
    expect(found.every((finding) => finding.kind === 'record-disagrees-with-kept-file')).toBe(true);
    expect(found).toHaveLength(3);
  });
});
