import { rm, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { doctorOf, findingsAbout } from '../../fixtures/doctor-findings.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// Run show never re-digested an acceptance's receipt or check outputs (only
// doctor did), so a receipt.json rewritten after the judgement left run show at exit 0.

const targets = useTestTargets({ sharedRepository: false });
const home = () => ({ home: targets.home.path });

interface Output {
  path: string;
}
interface Account {
  runId: string;
  outcome: string;
  records: { chain: string };
  acceptance: { verdict: string; receiptFile: Output | 'none'; checks: { stdout: Output }[] } | 'not-recorded';
}
interface Shown extends Account {
  recordFindings: { kind: string; path: string; message: string }[];
}

describe("run show re-digests the receipt and check outputs of the attempt's acceptances, as doctor does (R13.6, R11)", () => {
  it('a receipt.json rewritten and a check output removed after the judgement: run show exits 1 naming each, worded as doctor words it', async () => {
    const repository = await repositoryWithSuite(targets, { checks: ['grep -qx forty-two answer.txt'] });
    const run = await runStatecraft(
      ['run', repository.path, '--adapter', 'fixture', '--accept', '--prompt', writePrompt('write', 'answer.txt', 'forty-two'), '--json'],
      { ...home(), timeoutMs: 120_000 },
    );
    const account = parseJson<Account>(run);
    if (account.acceptance === 'not-recorded' || account.acceptance.receiptFile === 'none') throw new Error('the run was not accepted');
    const receipt = account.acceptance.receiptFile.path;
    const stdout = account.acceptance.checks[0]?.stdout.path ?? '';
    const show = () => runStatecraft(['run', 'show', repository.path, account.runId, '--json'], home());
    const honest = await show();
    expect(honest.exitCode).toBe(0);
    expect(parseJson<Shown>(honest).recordFindings).toEqual([]);

    await writeFile(receipt, '{"a receipt": "rewritten"}\n');
    await rm(stdout);
    const showing = await show();
    expect(showing.exitCode).toBe(1);
    const found = parseJson<Shown>(showing).recordFindings;
    expect(found).toEqual([
      expect.objectContaining({ kind: 'altered-acceptance-evidence', path: stdout }),
      expect.objectContaining({ kind: 'altered-acceptance-evidence', path: receipt }),
    ]);
    expect(found[0]?.message).toContain('is missing, where the acceptance record holds its digest');
    expect(found[1]?.message).toContain('no longer has the digest the acceptance record holds');
    const human = await runStatecraft(['run', 'show', repository.path, account.runId, '--posture'], home());
    expect(human.exitCode).toBe(1);
    expect(human.stdout).toContain('finding: altered-acceptance-evidence:');

    const fromDoctor = findingsAbout((await doctorOf(targets.home.path)).value, account.records.chain);
    expect(fromDoctor).toEqual(found);
  });
});
