import { describe, expect, it } from 'vitest';
import { repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { doctorOf, findingsAbout } from '../../fixtures/doctor-findings.js';
import { appendLinkedRecord, readChainRecords, type ForgedRecord } from '../../fixtures/relink-chain.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// The run id a record holds was trusted when deriving an attempt's paths. An
// intent appended with the run id `x/../<another run>` had its files derived, and normalised, into
// that other attempt's directory: doctor read another attempt's request, stream, result, receipt
// and check outputs as this one's. `run` makes every run id in one shape (newRunId).

const targets = useTestTargets({ sharedRepository: false });
const home = () => ({ home: targets.home.path });

interface Account {
  runId: string;
  outcome: string;
  records: { chain: string };
}

/** Every `path` inside a record, rewritten from one attempt's directory to another's. */
function movePaths(value: unknown, from: string, to: string): void {
  if (typeof value !== 'object' || value === null) return;
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    if (key === 'path' && typeof inner === 'string') (value as Record<string, unknown>)[key] = inner.replace(from, to);
    else movePaths(inner, from, to);
  }
}

describe('a run id that is not one run makes is never made into a path (R8.4)', () => {
  it("an attempt appended under the run id x/../<an accepted run>, its records naming that run's files through it: doctor names the run id, and reads none of those files as its own (exit 1)", async () => {
    const repository = await repositoryWithSuite(targets, { checks: ['grep -qx forty-two answer.txt'] });
    const run = await runStatecraft(
      ['run', repository.path, '--adapter', 'fixture', '--accept', '--prompt', writePrompt('write', 'answer.txt', 'forty-two'), '--json'],
      { ...home(), timeoutMs: 120_000 },
    );
    const accepted = parseJson<Account>(run);
    expect(accepted.outcome).toBe('completed');
    const chain = accepted.records.chain;
    expect(findingsAbout((await doctorOf(targets.home.path)).value, chain)).toEqual([]);

    const forgedRunId = `x/../${accepted.runId}`;
    const [from, to] = [`attempts/${accepted.runId}/1/`, `attempts/${forgedRunId}/1/`];
    const records = await readChainRecords(chain);
    const of = (kind: string): ForgedRecord => {
      const found = records.find(({ record }) => record.kind === kind)?.record;
      if (found === undefined) throw new Error(`the chain holds no ${kind}`);
      return structuredClone(found);
    };
    const intent = { ...of('intent'), runId: forgedRunId };
    movePaths(intent, from, to);
    await appendLinkedRecord(chain, intent);
    const intentLine = records.length + 1;
    const outcome = { ...of('outcome'), runId: forgedRunId, intent: (await readChainRecords(chain)).at(-1)?.digest };
    movePaths(outcome, from, to);
    await appendLinkedRecord(chain, outcome);
    const acceptance = of('acceptance');
    const [intentDigest, outcomeDigest] = (await readChainRecords(chain)).slice(-2).map((record) => record.digest);
    const receipt = acceptance.receipt as ForgedRecord;
    Object.assign(acceptance, {
      runId: forgedRunId,
      outcome: outcomeDigest,
      receipt: { ...receipt, attempt: { ...(receipt.attempt as ForgedRecord), runId: forgedRunId, intent: intentDigest, outcome: outcomeDigest } },
    });
    movePaths(acceptance, from, to);
    await appendLinkedRecord(chain, acceptance);

    const { run: doctoring, value } = await doctorOf(targets.home.path);
    expect(doctoring.exitCode).toBe(1);
    const found = findingsAbout(value, chain);
    expect(found.map((finding) => finding.kind).sort()).toEqual(['evidence-elsewhere', 'run-id-malformed']);
    const malformed = found.find((finding) => finding.kind === 'run-id-malformed');
    expect(malformed?.message).toContain(`the intent record (${chain} line ${intentLine}) names the run id ${JSON.stringify(forgedRunId)}`);
    expect(found.find((finding) => finding.kind === 'evidence-elsewhere')?.message).toContain(`the acceptance record (${chain} line ${intentLine + 2})`);

    // The run it borrowed from is as it was.
    const shown = await runStatecraft(['run', 'show', repository.path, accepted.runId, '--json'], home());
    expect(shown.exitCode).toBe(0);
  });
});
