import { execFile } from 'node:child_process';
import { copyFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, rowsRejoined, type CliRun } from '../../fixtures/statecraft-cli.js';

// End to end through the built `statecraft` binary, as CI would run it (R3, R4, R11), with a
// private product home per test.

const repository = fileURLToPath(new URL('../../..', import.meta.url));
const statecraft = join(repository, 'packages/cli/bin/statecraft');
const fixture = join(repository, 'packages/adapter/fixture/statecraft-fixture-adapter');
const scratch = scratchDirectories();

/** A CliRun, so `parseJson` checks each `--json` answer against its verb's schema. */
interface Ran extends CliRun {
  code: number;
}

function run(args: string[], home: string): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(statecraft, args, { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', STATECRAFT_HOME: home }, timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ args, code, exitCode: code, stdout, stderr });
    });
  });
}

const freshHome = () => scratch.make('statecraft-e2e-home');

interface QualifyDocument {
  passed: boolean;
  suiteVersion: string;
  adapter: { name: string; version: string; digest: string };
  cases: { row: number; title: string; status: string; evidence: string; detail: string }[];
  record: { id: string; path: string } | null;
}

/** A copy of the fixture (and its manifest) with one byte more: same version string, other bytes. */
async function alteredFixture(): Promise<string> {
  const dir = await scratch.make('statecraft-altered');
  const copy = join(dir, 'statecraft-fixture-adapter');
  copyFileSync(fixture, copy);
  copyFileSync(`${fixture}.manifest.json`, `${copy}.manifest.json`);
  writeFileSync(copy, Buffer.concat([readFileSync(copy), Buffer.from('\n')]), { mode: 0o755 });
  return copy;
}

describe('statecraft qualify (R3.1, R4)', () => {
  it('qualify --fixture --json exits 0 with nine passing cases and writes a record the list then shows', async () => {
    const home = await freshHome();
    const qualified = await run(['qualify', '--fixture', '--json'], home);
    expect(qualified.code).toBe(0);
    const document = parseJson<QualifyDocument>(qualified);
    expect(document.passed).toBe(true);
    expect(document.suiteVersion).toMatch(/^negative-suite\//);
    expect(document.adapter).toMatchObject({ name: 'fixture', version: '1.0.0' });
    expect(document.cases.map((entry) => entry.row)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(document.cases.every((entry) => entry.status === 'pass')).toBe(true);
    expect(document.record).not.toBeNull();
    expect(readdirSync(join(home, 'qualifications'))).toEqual([`${document.record!.id}.json`]);

    const listed = await run(['qualifications', 'list', '--json'], home);
    expect(listed.code).toBe(0);
    const list = parseJson<{ records: { id: string; adapter: { digest: string } }[] }>(listed);
    expect(list.records.map((entry) => entry.id)).toEqual([document.record!.id]);
    expect(list.records[0]?.adapter.digest).toBe(document.adapter.digest);

    const human = await run(['qualifications'], home);
    expect(human.stdout).toContain(document.record!.id);

    const shown = await run(['qualifications', 'show', document.record!.id, '--json'], home);
    expect(shown.code).toBe(0);
    expect(parseJson(shown)).toMatchObject({ record: { id: document.record!.id, suiteVersion: document.suiteVersion } });

    const checked = await run(['qualifications', 'check', fixture, '--json'], home);
    expect(checked.code).toBe(0);
    expect(parseJson(checked)).toMatchObject({ verdict: 'qualified', record: { id: document.record!.id } });
  });

  it('qualify --fixture --boundary none fails row 9: the attack on the records succeeds there, each move is named, no record is written (R12, R4 row 9)', async () => {
    const home = await freshHome();
    const answer = await run(['qualify', '--fixture', '--json', '--boundary', 'none'], home);
    expect(answer.code).toBe(1);
    const document = parseJson<QualifyDocument & { boundary: string }>(answer);
    expect(document.boundary).toBe('none');
    expect(document.passed).toBe(false);
    expect(document.record).toBeNull();
    const row9 = document.cases.find((entry) => entry.row === 9);
    expect(row9?.status).toBe('fail');
    expect(row9?.detail).toContain('the chain changed');
    expect(row9?.detail).toContain('a qualification record was written');
    expect(row9?.detail).toContain("the operator's checkout was written");
    expect(document.cases.filter((entry) => entry.row !== 9).every((entry) => entry.status === 'pass')).toBe(true);
    // The row's decoys are gone from the product home, whatever the verdict.
    expect(readdirSync(home).filter((name) => name.startsWith('.negative-suite-row-9-'))).toEqual([]);
  });

  it('a copy of the fixture with one byte changed is unqualified by qualifications check, exit 1 (R3.3)', async () => {
    const home = await freshHome();
    expect((await run(['qualify', '--fixture', '--json'], home)).code).toBe(0);
    const checked = await run(['qualifications', 'check', await alteredFixture()], home);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toContain('unqualified');
    expect(rowsRejoined(checked.stdout, 4)).toContain('the same version string with different content is not the qualified binary');
    // What a person reads names no requirement by its number.
    expect(checked.stdout).not.toMatch(/\bR\d+(\.\d+)?\b/);
  });

  it('with --provider the pair is qualified: another provider binary beside the same adapter is unqualified (R3.1)', async () => {
    const home = await freshHome();
    const dir = await scratch.make('statecraft-provider');
    const provider = join(dir, 'provider-v1');
    const upgraded = join(dir, 'provider-v2');
    writeFileSync(provider, '#!/bin/sh\necho v1\n', { mode: 0o755 });
    writeFileSync(upgraded, '#!/bin/sh\necho v2\n', { mode: 0o755 });
    const qualified = await run(['qualify', '--fixture', '--provider', provider, '--json'], home);
    expect(qualified.code).toBe(0);
    const document = parseJson<QualifyDocument & { provider: { name: string; digest: string } }>(qualified);
    expect(document.provider).toMatchObject({ name: 'provider-v1' });
    expect(document.provider.digest).toMatch(/^sha256:/);

    expect((await run(['qualifications', 'check', fixture, '--provider', provider], home)).code).toBe(0);
    const other = await run(['qualifications', 'check', fixture, '--provider', upgraded], home);
    expect(other.code).toBe(1);
    expect(other.stdout).toContain('a provider upgrade invalidates');
    expect((await run(['qualifications', 'check', fixture], home)).code).toBe(1);
  });

  it('an adapter that fails a row exits 1 and writes no record', async () => {
    const home = await freshHome();
    const manifest = join(await scratch.make('statecraft-manifest'), 'lying.manifest.json');
    const declared = JSON.parse(readFileSync(`${fixture}.manifest.json`, 'utf8')) as { capabilities: string[] };
    writeFileSync(manifest, JSON.stringify({ ...declared, capabilities: [...declared.capabilities, 'workspace-write'] }));
    const qualified = await run(['qualify', fixture, '--manifest', manifest, '--json'], home);
    expect(qualified.code).toBe(1);
    const document = parseJson<QualifyDocument>(qualified);
    expect(document.passed).toBe(false);
    expect(document.record).toBeNull();
    expect(document.cases.find((entry) => entry.row === 6)).toMatchObject({ status: 'fail' });
    expect((await run(['qualifications', 'list', '--json'], home)).stdout).toContain('"records": []');
  });

  it('refusals name the path and say what to do next', async () => {
    const home = await freshHome();
    const missing = await run(['qualify', join(home, 'no-such-adapter')], home);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(join(home, 'no-such-adapter'));
    expect(missing.stderr).toContain('next:');

    const noManifest = join(await scratch.make('statecraft-bare'), 'adapter');
    copyFileSync(fixture, noManifest);
    const unmanifested = await run(['qualify', noManifest], home);
    expect(unmanifested.code).toBe(2);
    expect(unmanifested.stderr).toContain(`${noManifest}.manifest.json`);
    expect(unmanifested.stderr).toContain('--manifest');

    expect((await run(['qualify'], home)).code).toBe(3);
    const unknown = await run(['qualifications', 'show', 'no-such-record'], home);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('statecraft qualifications list');
  });

  it('a --provider that does not exist is refused before anything runs, exit 2, naming the path and what to give (R3.1)', async () => {
    const home = await freshHome();
    const codex = join(repository, 'packages/adapter-codex/dist/bundle/statecraft-adapter-codex.mjs');
    const started = Date.now();
    const missing = await run(['qualify', codex, '--provider', '/nonexistent/codex'], home);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('refused: /nonexistent/codex: the provider executable is no such file; nothing was run');
    expect(missing.stderr).toContain('give --provider the path of the codex executable this adapter fronts (an npm install: node_modules/.bin/codex)');
    // Nothing ran: no case was reported, no record written, and no suite's worth of time went by.
    expect(missing.stdout).not.toMatch(/row \d/);
    expect(readdirSync(home)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(8_000);

    // An executable that is no install of the provider: its identity files cannot be found.
    const stranger = join(await scratch.make('statecraft-not-an-install'), 'codex');
    copyFileSync(fixture, stranger);
    const outside = await run(['qualify', codex, '--provider', stranger], home);
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain(`the provider cannot be identified: ${stranger}`);
    expect(outside.stderr).toContain('providerIdentityFiles');
  });

  it('help teaches with examples', async () => {
    const help = await run(['qualify', '--help'], await freshHome());
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('statecraft qualify --fixture');
    expect(help.stdout).toContain('--provider');
  });
});
