import { realpathSync } from 'node:fs';
import { copyFile, readFile, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { digestFile } from '@statecraft/adapter';
import { claudeCodeAdapterPath, pinnedClaudePath } from '@statecraft/adapter-claude-code';
import { codexAdapterPath, pinnedCodexPath } from '@statecraft/adapter-codex';
import { createSampleRepository } from './fixtures/sample-repository.js';
import { parseJson, runStatecraft } from './fixtures/statecraft-cli.js';
import { scratchDirectories } from './fixtures/scratch-directories.js';
import { checkQualification, expectReferenceRecordOf, qualifyThroughCli, writeImpostor } from './fixtures/live-qualification.js';
import type { QualifyJson } from './fixtures/live-qualification.js';

/** Every temporary directory this file makes, removed when it is done. */
const scratch = scratchDirectories();

// Live qualification of the Codex pair (R3.1, R3.3, R14.1), run once, exactly as CI runs it
// (docs/ci.md): `statecraft qualify <codex adapter bundle> --provider node_modules/.bin/codex`.
// Every declared token is measured live against the pinned codex through the model double; rows
// 4, 5 and 7 replay recorded streams through real children. Its record is then read through the
// built CLI, and env plan is asked about both real providers (R10.6).

interface PlanJson {
  verdict: string;
  message: string;
  adapters: Array<{ name: string; managedPaths: string[]; prerequisites: Array<{ prerequisite: { kind: string }; state: string }>; claim: { kind: string } }>;
  collisions: Array<{ paths: string[]; adapters: string[] }>;
}

const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));
/** The provider as the operator names it in CI: the npm bin link of the pinned dev dependency. */
const BIN_CODEX = join(repositoryRoot, 'node_modules', '.bin', 'codex');

let report: QualifyJson;
let home: string;
let bin: string;

beforeAll(async () => {
  ({ report, home } = await qualifyThroughCli(scratch, codexAdapterPath(), BIN_CODEX));
  bin = await scratch.make('statecraft-codex-bin-');
  await symlink(pinnedCodexPath(), join(bin, 'codex'));
  await symlink(pinnedClaudePath(), join(bin, 'claude'));
}, 300_000);

describe('qualification of the Codex adapter with the pinned codex', () => {
  it('passes every row inside the evidence boundary, names each case its evidence, and binds the adapter digest and the provider version and digest (R3.1, R4, R14.1)', async () => {
    expect(report.cases.filter((entry) => entry.status !== 'pass').map((entry) => `row ${entry.row}: ${entry.detail}`)).toEqual([]);
    expect(report.passed).toBe(true);
    expect(report.boundary).toBe('bwrap');
    expect(Object.fromEntries(report.cases.map((entry) => [entry.row, entry.evidence]))).toEqual({
      1: 'live',
      2: 'live',
      3: 'live',
      4: 'replayed',
      5: 'replayed',
      6: 'live',
      7: 'replayed',
      8: 'live',
      // Codex attacks the records itself, through its own exec_command tool (R12).
      9: 'live',
    });
    expect(report.adapter.digest).toBe(await digestFile(codexAdapterPath()));
    expect(report.provider).toEqual({ name: 'codex', version: '0.171.0', digest: await digestFile(realpathSync(BIN_CODEX)) });
    // Row 6 rests on one live measurement per declared token, not on the init event alone.
    const row6 = report.cases.find((entry) => entry.row === 6)?.detail ?? '';
    for (const token of ['tool-allowlist', 'workspace-write', 'hook-enforcement', 'structured-refusals']) expect(row6).toContain(`${token}:`);
    expect(row6).toContain('left no file');
  });

  it("matches the repository's reference record of the pair: same adapter digest, provider digest and suite (R3.1)", () => {
    expectReferenceRecordOf(report, 'codex-', 'packages/adapter-codex/scripts/record-reference-qualification.mjs');
  });

  it('reads the pair as qualified through the CLI (R3.4)', async () => {
    const { answer, verdict } = await checkQualification(home, codexAdapterPath(), BIN_CODEX);
    expect(verdict.verdict).toBe('qualified');
    expect(answer.exitCode).toBe(0);
  });

  it('reads a different provider binary answering the same version as unqualified (R3.3, R10.7)', async () => {
    const impostor = await writeImpostor(scratch, 'statecraft-codex-impostor-', 'codex', 'codex-cli 0.171.0');
    const { answer, verdict } = await checkQualification(home, codexAdapterPath(), impostor);
    expect(verdict.verdict).toBe('unqualified');
    expect(verdict.reason).toContain(await digestFile(impostor));
    expect(answer.exitCode).toBe(1);
  });

  it("shows both providers' prerequisites and managed paths in env plan, and lets the qualified Codex pair claim its paths (R10.6)", async () => {
    const repository = await createSampleRepository();
    scratch.keep(repository);
    const operatorHome = await scratch.make('statecraft-codex-operator-home-');
    const answer = await runStatecraft(['env', 'plan', repository.path, '--adapter', claudeCodeAdapterPath(), '--adapter', codexAdapterPath(), '--json'], {
      home,
      env: {
        PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`,
        HOME: operatorHome,
        OPENAI_API_KEY: 'sk-statecraft-codex-model-double-test-credential',
      },
    });
    const plan = parseJson<PlanJson>(answer);
    expect(plan.collisions).toEqual([]);
    const byName = Object.fromEntries(plan.adapters.map((adapter) => [adapter.name, adapter]));
    expect(byName['claude-code']?.managedPaths).toEqual(['~/.claude']);
    expect(byName.codex?.managedPaths).toEqual(['~/.codex', '/tmp/codex-daemon-1000']);
    expect(byName.codex?.prerequisites.map((check) => [check.prerequisite.kind, check.state])).toEqual([
      ['command', 'present'],
      ['qualification', 'present'],
      ['credential', 'present'],
    ]);
    expect(byName.codex?.claim.kind).toBe('claimed');
    // Claude Code has no qualification record in this home: it claims nothing, and says so.
    expect(byName['claude-code']?.claim.kind).toBe('not-claimed');
  });

  it('refuses a second adapter declaring ~/.codex beside both real adapters, naming both and the path (R10.6)', async () => {
    const repository = await createSampleRepository();
    scratch.keep(repository);
    const siblingDirectory = await scratch.make('statecraft-codex-sibling-');
    const sibling = join(siblingDirectory, 'statecraft-adapter-codex-sibling.mjs');
    await copyFile(codexAdapterPath(), sibling);
    const manifest = JSON.parse(await readFile(`${codexAdapterPath()}.manifest.json`, 'utf8')) as Record<string, unknown>;
    await writeFile(`${sibling}.manifest.json`, JSON.stringify({ ...manifest, name: 'codex-sibling', managedPaths: ['~/.codex'] }));
    const answer = await runStatecraft(
      ['env', 'plan', repository.path, '--adapter', claudeCodeAdapterPath(), '--adapter', codexAdapterPath(), '--adapter', sibling, '--json'],
      { home, env: { PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin` } },
    );
    expect(answer.exitCode).toBe(2);
    const plan = parseJson<PlanJson>(answer);
    expect(plan.verdict).toBe('refused');
    expect(plan.collisions).toEqual([{ paths: ['~/.codex', '~/.codex'], adapters: ['codex', 'codex-sibling'] }]);
    expect(plan.message).toContain('adapters codex and codex-sibling both declare the managed path ~/.codex');
  });
});
