import { realpathSync } from 'node:fs';
import { copyFile, readFile, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestFile, identifyProvider, sha256Hex, type ProviderIdentification } from '@statecraft/adapter';
import { productHomeLayout } from '@statecraft/records';
import { claudeCodeAdapterPath, pinnedClaudePath } from '@statecraft/adapter-claude-code';
import {
  CODEX_MANIFEST,
  codexAdapterPath,
  loadScenarios,
  pinnedCodexPath,
  scenariosDirectory,
  startModelDouble,
  type ModelDouble,
} from '@statecraft/adapter-codex';
import { createSampleRepository } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { checkQualification, expectReferenceRecordOf, qualifyThroughCli, writeImpostor } from '../../fixtures/live-qualification.js';
import type { QualifyJson } from '../../fixtures/live-qualification.js';
import { changeOneByte, copyProviderInstall } from '../../fixtures/provider-install-copy.js';

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

const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));
/** The provider as the operator names it in CI: the npm bin link of the pinned dev dependency. */
const BIN_CODEX = join(repositoryRoot, 'node_modules', '.bin', 'codex');

/** `qualifications check --json`: the provider as named, its bytes' digest and its identity. */
interface CheckJson {
  provider: { executable: string; digest: string; identity: ProviderIdentification };
}

let report: QualifyJson;
let double: ModelDouble;
let home: string;
let bin: string;

beforeAll(async () => {
  ({ report, home } = await qualifyThroughCli(scratch, codexAdapterPath(), BIN_CODEX));
  double = await startModelDouble(await loadScenarios(scenariosDirectory()));
  bin = await scratch.make('statecraft-codex-bin-');
  await symlink(pinnedCodexPath(), join(bin, 'codex'));
  await symlink(pinnedClaudePath(), join(bin, 'claude'));
}, 300_000);
afterAll(async () => {
  await double.stop();
});

/**
 * `statecraft run --adapter codex --provider <provider>` against the model double's clean text
 * answer, in the qualified pair's product home: the label it records (R3.2). Whatever the
 * provider then does, the deadline ends it.
 */
async function runWithProvider(provider: string): Promise<{ posture: { qualification: { verdict: string; reason: string } } }> {
  const repository = await createSampleRepository();
  scratch.keep(repository);
  const answer = await runStatecraft(
    ['run', repository.path, '--adapter', 'codex', '--provider', provider, '--prompt', 'Answer.', '--deadline', '30s', '--json'],
    {
      home,
      env: {
        PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
        HOME: await scratch.make('statecraft-codex-operator-home-'),
        OPENAI_BASE_URL: double.baseUrlFor('completed'),
        OPENAI_API_KEY: double.apiKey,
      },
      timeoutMs: 60_000,
    },
  );
  return parseJson(answer);
}

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
    // The launcher's bytes do not change between releases: the identity binds the native binary it
    // runs (and the bubblewrap it ships) as the manifest declares them (R3.1).
    const identity = await identifyProvider({
      executable: BIN_CODEX,
      executableDigest: await digestFile(realpathSync(BIN_CODEX)),
      declared: CODEX_MANIFEST.providerIdentityFiles,
    });
    if (identity.kind !== 'identified') throw new Error(identity.message);
    expect(identity.files.map((file) => file.file)).toEqual([
      '@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex',
      '@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/codex-resources/bwrap',
    ]);
    expect(report.provider).toEqual({
      name: 'codex',
      version: '0.171.0',
      digest: identity.digest,
      identityFiles: identity.files.map(({ file, digest }) => ({ file, digest })),
    });
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

  it('reads a different provider binary answering the same version as unqualified: outside any install it cannot be identified (R3.3, R10.7)', async () => {
    const impostor = await writeImpostor(scratch, 'statecraft-codex-impostor-', 'codex', 'codex-cli 0.171.0');
    const { answer, verdict } = await checkQualification(home, codexAdapterPath(), impostor);
    expect(verdict.verdict).toBe('unqualified');
    expect(verdict.reason).toContain(`the provider cannot be identified: ${impostor}`);
    expect(answer.exitCode).toBe(1);
  });

  it('reads an install whose launcher is byte-identical but whose native binary differs as unqualified; the same install unchanged, elsewhere, stays qualified (R3.1)', async () => {
    const install = await copyProviderInstall(BIN_CODEX, CODEX_MANIFEST.providerIdentityFiles ?? [], await scratch.make('statecraft-codex-install-'));
    const [nativeBinary] = install.identityFiles;
    if (nativeBinary === undefined) throw new Error('the Codex manifest declares no identity file for this platform');
    const unchanged = await checkQualification(home, codexAdapterPath(), install.bin);
    expect(unchanged.verdict.verdict).toBe('qualified');
    // run labels it so too, its digests now in the product home's digest cache.
    expect((await runWithProvider(install.bin)).posture.qualification.verdict).toBe('qualified');
    // The native binary's digest is remembered in the digest cache, as the launcher's is.
    const realNative = realpathSync(nativeBinary);
    const remembered = JSON.parse(await readFile(join(productHomeLayout(home).digests, `${sha256Hex(realNative)}.json`), 'utf8')) as { path: string };
    expect(remembered.path).toBe(realNative);

    await changeOneByte(nativeBinary);
    const { answer, verdict } = await checkQualification(home, codexAdapterPath(), install.bin);
    expect(answer.exitCode).toBe(1);
    expect(verdict.verdict).toBe('unqualified');
    const checked = parseJson<CheckJson>(answer);
    // The launcher is the qualified one, byte for byte; the identity is not.
    expect(checked.provider.digest).toBe(await digestFile(realpathSync(BIN_CODEX)));
    if (checked.provider.identity.kind !== 'identified') throw new Error('the copied install could not be identified');
    expect(checked.provider.identity.files[0]).toMatchObject({ path: nativeBinary, digest: await digestFile(nativeBinary) });
    expect(checked.provider.identity.digest).not.toBe((report.provider as { digest: string }).digest);
    expect(verdict.reason).toContain(checked.provider.identity.digest);
    expect(verdict.reason).toContain('a provider upgrade invalidates it');

    // run, whose cache remembered the native binary's digest, labels the changed install unqualified (R3.2).
    const changedRun = await runWithProvider(install.bin);
    expect(changedRun.posture.qualification.verdict).toBe('unqualified');
    expect(changedRun.posture.qualification.reason).toContain(checked.provider.identity.digest);

    // env plan, asked about the same pair, says the same (R10.6).
    const repository = await createSampleRepository();
    scratch.keep(repository);
    const planned = await runStatecraft(['env', 'plan', repository.path, '--adapter', codexAdapterPath(), '--provider', install.bin, '--json'], { home });
    const plan = parseJson<{ adapters: Array<{ qualification: { verdict: string; reason: string } }> }>(planned);
    expect(plan.adapters[0]?.qualification.verdict).toBe('unqualified');
    expect(plan.adapters[0]?.qualification.reason).toContain(checked.provider.identity.digest);
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
    // Claude Code keeps its state in a private CLAUDE_CONFIG_DIR per attempt: it manages no path of the operator's.
    expect(byName['claude-code']?.managedPaths).toEqual([]);
    expect(byName.codex?.managedPaths).toEqual(['/tmp/codex-daemon-1000']);
    expect(byName.codex?.prerequisites.map((check) => [check.prerequisite.kind, check.state])).toEqual([
      ['command', 'present'],
      ['qualification', 'present'],
      ['credential', 'present'],
    ]);
    expect(byName.codex?.claim.kind).toBe('claimed');
    // Claude Code has no qualification record in this home: it claims nothing, and says so.
    expect(byName['claude-code']?.claim.kind).toBe('not-claimed');
  });

  it('refuses a second adapter declaring /tmp/codex-daemon-1000 beside both real adapters, naming both and the path (R10.6)', async () => {
    const repository = await createSampleRepository();
    scratch.keep(repository);
    const siblingDirectory = await scratch.make('statecraft-codex-sibling-');
    const sibling = join(siblingDirectory, 'statecraft-adapter-codex-sibling.mjs');
    await copyFile(codexAdapterPath(), sibling);
    const manifest = JSON.parse(await readFile(`${codexAdapterPath()}.manifest.json`, 'utf8')) as Record<string, unknown>;
    await writeFile(`${sibling}.manifest.json`, JSON.stringify({ ...manifest, name: 'codex-sibling', managedPaths: ['/tmp/codex-daemon-1000'] }));
    const answer = await runStatecraft(
      ['env', 'plan', repository.path, '--adapter', claudeCodeAdapterPath(), '--adapter', codexAdapterPath(), '--adapter', sibling, '--json'],
      { home, env: { PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin` } },
    );
    expect(answer.exitCode).toBe(2);
    const plan = parseJson<PlanJson>(answer);
    expect(plan.verdict).toBe('refused');
    expect(plan.collisions).toEqual([{ paths: ['/tmp/codex-daemon-1000', '/tmp/codex-daemon-1000'], adapters: ['codex', 'codex-sibling'] }]);
    expect(plan.message).toContain('adapters codex and codex-sibling both declare the managed path /tmp/codex-daemon-1000');
  });
});
