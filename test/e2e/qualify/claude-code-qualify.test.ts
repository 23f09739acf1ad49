import { realpathSync } from 'node:fs';
import { symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { digestFile } from '@statecraft/adapter';
import { claudeCodeAdapterPath, pinnedClaudePath } from '@statecraft/adapter-claude-code';
import { createSampleRepository } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { checkQualification, expectReferenceRecordOf, qualifyThroughCli, writeImpostor } from '../../fixtures/live-qualification.js';
import type { QualifyJson } from '../../fixtures/live-qualification.js';

/** Every temporary directory this file makes, removed when it is done. */
const scratch = scratchDirectories();

// Live qualification of the pair (R3.1, R3.3, R10.5, R10.7): the negative suite runs once against
// the bundled adapter fronting the pinned claude through the model double (rows 4, 5 and 7
// replayed through real children); its record is then read through the built CLI.

let report: QualifyJson;
let home: string;
let bin: string;

beforeAll(async () => {
  ({ report, home } = await qualifyThroughCli(scratch, claudeCodeAdapterPath(), pinnedClaudePath()));
  bin = await scratch.make('statecraft-cc-bin');
  await symlink(pinnedClaudePath(), join(bin, 'claude'));
}, 300_000);

describe('qualification of the Claude Code adapter with the pinned claude', () => {
  it('passes every row, names each case its evidence, and binds the adapter digest and the provider version and digest (R3.1, R4, R10.7)', async () => {
    expect(report.cases.filter((entry) => entry.status !== 'pass').map((entry) => `row ${entry.row}: ${entry.detail}`)).toEqual([]);
    expect(report.passed).toBe(true);
    expect(report.record).not.toBeNull();
    expect(Object.fromEntries(report.cases.map((entry) => [entry.row, entry.evidence]))).toEqual({
      1: 'live',
      2: 'live',
      3: 'live',
      4: 'replayed',
      5: 'replayed',
      6: 'live',
      7: 'replayed',
      8: 'live',
      // The attack through claude's own Bash tool, aimed by the row (R12).
      9: 'live',
    });
    expect(report.adapter.digest).toBe(await digestFile(claudeCodeAdapterPath()));
    // claude is its native binary itself and starts no other file of its package: its bytes are its whole identity.
    expect(report.provider).toEqual({ name: 'claude', version: '2.1.328', digest: await digestFile(realpathSync(pinnedClaudePath())), identityFiles: [] });
    // Row 6 rests on one live measurement per declared token (R10.5), not on the init event alone.
    const row6 = report.cases.find((entry) => entry.row === 6)?.detail ?? '';
    for (const token of ['turn-limit', 'cost-report', 'hook-enforcement', 'structured-refusals', 'tool-allowlist', 'workspace-write']) {
      expect(row6).toContain(`${token}:`);
    }
    // workspace-write measured under the boundary the record names (R12).
    expect(report.boundary).toBe('bwrap');
    expect(row6).toContain('workspace-write: with no allow rule the Write tool created answer.txt');
  });

  it("matches the repository's reference record of the pair: same adapter digest, provider digest and suite (R3.1, R10.7)", () => {
    // CI qualifies the pair live on every run (above); the record kept in qualification/records/ must
    // bind exactly the pair it just qualified, or it is stale and must be regenerated.
    expectReferenceRecordOf(report, 'claude-code-', 'packages/adapter-claude-code/scripts/record-reference-qualification.mjs');
  });

  it('reads the pair as qualified through the CLI (R3.4)', async () => {
    const { answer, verdict } = await checkQualification(home, claudeCodeAdapterPath(), pinnedClaudePath());
    expect(verdict.verdict).toBe('qualified');
    expect(answer.exitCode).toBe(0);
  });

  it('reads a different provider binary claiming the same version string as unqualified (R3.3, R10.7)', async () => {
    const impostor = await writeImpostor(scratch, 'statecraft-cc-impostor', 'claude', '2.1.328 (Claude Code)');
    const { answer, verdict } = await checkQualification(home, claudeCodeAdapterPath(), impostor);
    expect(verdict.verdict).toBe('unqualified');
    // Unqualified for the right reason: the provider's digest, not a missing record or another version.
    expect(verdict.reason).toContain(await digestFile(impostor));
    expect(verdict.reason).toContain('what is qualified is the pair');
    expect(answer.exitCode).toBe(1);
  });

  it('lets env plan claim the adapter (no managed path to claim) once claude resolves, the pair is qualified and a credential is present (R10.6)', async () => {
    const repository = await createSampleRepository();
    scratch.keep(repository);
    const operatorHome = await scratch.make('statecraft-cc-operator-home');
    const answer = await runStatecraft(['env', 'plan', repository.path, '--adapter', claudeCodeAdapterPath(), '--json'], {
      home,
      env: {
        PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`,
        HOME: operatorHome,
        ANTHROPIC_API_KEY: 'sk-ant-statecraft-model-double-test-credential',
      },
    });
    const plan = parseJson<{ verdict: string; adapters: Array<{ claim: unknown }> }>(answer);
    expect(plan.verdict).toBe('claimed');
    expect(plan.adapters[0]?.claim).toEqual({ kind: 'claimed', paths: [] });
    expect(answer.exitCode).toBe(0);
  });
});
