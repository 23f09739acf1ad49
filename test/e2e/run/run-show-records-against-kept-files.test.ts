import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { doctorSteps } from '../../fixtures/doctor-findings.js';
import { editChainAlone, type ForgedRecord } from '../../fixtures/relink-chain.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

/** What these tests read of `run show --json`. */
interface Shown {
  outcome: string;
  cost: unknown;
  records: { chain: string; outcome: { line: number } };
  artifacts: { result: { path: string }; stream: { path: string } };
  artifactCheck: Record<string, string>;
  outcomeCheck: { state: string; recorded?: unknown; fromStream?: unknown; fields?: unknown[] };
  recordDisagreements: unknown[];
}

const targets = useTestTargets({ sharedRepository: false });
const { attempt, doctor, findingsOf } = doctorSteps(() => targets.home.path);
const show = (target: string, runId: string, ...extra: string[]) =>
  runStatecraft(['run', 'show', target, runId, ...extra, '--posture'], { home: targets.home.path });

describe('run show compares what the chain records with the kept files it verified by digest, as doctor does (R8.4, R11)', () => {
  it("a completed attempt whose outcome record's cost was edited in the chain alone (relinked, checkpoint rewritten) exits 1, naming the record, its line, the file and the field, in --json and in text", async () => {
    const target = await targets.fresh();
    const account = await attempt(target.path);
    const honest = await show(target.path, account.runId, '--json');
    expect(honest.exitCode).toBe(0);
    const before = parseJson<Shown>(honest);
    expect(before.recordDisagreements).toEqual([]);
    const keptCost = (JSON.parse(await readFile(account.artifacts.result.path, 'utf8')) as { cost: unknown }).cost;
    expect(typeof keptCost === 'number' && keptCost > 0).toBe(true);

    // The cost a forger would rather show: 0, in the outcome record and the result it copies, the kept result.json left alone.
    await editChainAlone(account.records.chain, (record) => {
      if (record.kind !== 'outcome') return;
      record.cost = 0;
      (record.result as ForgedRecord).cost = 0;
    });

    const forged = await show(target.path, account.runId, '--json');
    expect(forged.exitCode).toBe(1);
    const after = parseJson<Shown>(forged);
    // The files verify and the stream gives the recorded outcome; the cost is the stream's too, so the stream disagrees on that field alone.
    expect(after).toMatchObject({ outcome: 'completed', cost: 0 });
    expect(after.outcomeCheck).toMatchObject({
      state: 'disagrees',
      fields: [{ field: 'result.cost', recorded: { value: 0 }, keptField: 'cost', kept: { value: keptCost } }],
    });
    expect(after.outcomeCheck.recorded).toEqual(after.outcomeCheck.fromStream);
    expect(Object.values(after.artifactCheck).every((state) => state === 'verified')).toBe(true);
    expect(after.recordDisagreements).toEqual([
      {
        record: 'outcome',
        line: before.records.outcome.line,
        file: account.artifacts.result.path,
        fields: [{ field: 'result.cost', recorded: { value: 0 }, keptField: 'cost', kept: { value: keptCost } }],
      },
    ]);

    const text = await show(target.path, account.runId);
    expect(text.exitCode).toBe(1);
    expect(text.stdout).toContain(
      `finding: the outcome record (${account.records.chain} line ${before.records.outcome.line}) disagrees with the kept ${account.artifacts.result.path}`,
    );
    expect(text.stdout).toContain(`result.cost is 0 in the record, cost is ${JSON.stringify(keptCost)} in the file`);
    expect(text.stdout).toContain('run statecraft doctor');

    expect(text.stdout).toContain(`result.cost is 0 in the record, cost is ${JSON.stringify(keptCost)} in the stream`);

    // The same comparisons: doctor reports these very disagreements, and nothing more of this target.
    const { value } = await doctor();
    expect(findingsOf(value, account)).toEqual([
      expect.objectContaining({ kind: 'outcome-disagrees-with-stream', path: account.artifacts.stream.path }),
      expect.objectContaining({ kind: 'record-disagrees-with-kept-file', path: account.artifacts.result.path }),
    ]);
  });
});
