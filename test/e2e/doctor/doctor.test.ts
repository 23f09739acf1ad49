import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProductHome, createSampleRepository, type SampleRepository } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

interface Examination {
  exists: boolean;
  targets: { target: string; state: string; attempts: number }[];
  findings: { kind: string; path: string; message: string }[];
}

let home: { path: string; remove: () => Promise<void> };
let repository: SampleRepository;
beforeEach(async () => {
  home = await createProductHome();
  repository = await createSampleRepository();
});
afterEach(async () => {
  await repository.remove();
  await home.remove();
});

const doctor = async () => {
  const run = await runStatecraft(['doctor', '--json'], { home: home.path });
  return { run, value: parseJson<Examination>(run) };
};
const attempt = async (scenario: string) =>
  parseJson<{ records: { chain: string } }>(
    await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', `scenario: ${scenario}`, '--json'], { home: home.path }),
  );

describe('statecraft doctor checks the product home and every chain, repairing nothing (issue 3 item 8)', () => {
  it('a missing product home is an empty one: exit 0, no findings', async () => {
    const run = await runStatecraft(['doctor', '--json'], { home: join(home.path, 'not-yet') });
    expect(run.exitCode).toBe(0);
    expect(parseJson<Examination>(run)).toMatchObject({ exists: false, findings: [] });
  });

  it('verified chains with concluded attempts are no finding: exit 0', async () => {
    await attempt('complete');
    await attempt('refuse');
    const { run, value } = await doctor();
    expect(run.exitCode).toBe(0);
    expect(value.targets).toEqual([expect.objectContaining({ target: repository.path, state: 'verified', attempts: 2 })]);
    expect(value.findings).toEqual([]);
  });

  it('a torn final line is a finding (exit 1) and is left in place', async () => {
    const { records } = await attempt('complete');
    await appendFile(records.chain, '{"prev":"half a rec');
    const before = await readFile(records.chain);
    const { run, value } = await doctor();
    expect(run.exitCode).toBe(1);
    expect(value.findings).toEqual([expect.objectContaining({ kind: 'torn-tail', path: records.chain })]);
    expect(await readFile(records.chain)).toEqual(before);
  });

  it('a broken link is a finding naming the record, and the chain is not repaired', async () => {
    const { records } = await attempt('complete');
    await attempt('complete');
    const bytes = await readFile(records.chain);
    const at = bytes.indexOf(Buffer.from('"attempt":1'));
    bytes[at + '"attempt":'.length] = 0x39;
    await writeFile(records.chain, bytes);
    const { run, value } = await doctor();
    expect(run.exitCode).toBe(1);
    expect(value.findings).toEqual([expect.objectContaining({ kind: 'broken-chain', message: expect.stringContaining('line 1') as unknown })]);
    expect(await readFile(records.chain)).toEqual(bytes);
  });

  it('the human rendering reports the same findings as the JSON', async () => {
    const { records } = await attempt('complete');
    await appendFile(records.chain, '{"torn');
    const human = await runStatecraft(['doctor'], { home: home.path });
    expect(human.exitCode).toBe(1);
    expect(human.stdout).toContain('torn-tail');
    expect(human.stdout).toContain('nothing was repaired');
  });
});
