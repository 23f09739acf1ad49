import { readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  QualificationRecordSchema,
  checkQualification,
  listQualificationRecords,
  qualificationsDir,
  showQualificationRecord,
  writeQualificationRecord,
} from '@statecraft/records';
import { digestFile, fixtureAdapterPath, SUITE_CASES, SUITE_VERSION, readManifest, sidecarManifestPath, type SuiteReport } from '@statecraft/adapter';
import { freshDirectory } from '../../run/test/suite-helpers.js';

// Qualification records (R3): written once on a full pass, bound to exact binaries, never transferred.

const DIGEST_A = `sha256:${'a'.repeat(64)}`;
const DIGEST_B = `sha256:${'b'.repeat(64)}`;
const PROVIDER_1 = { name: 'provider', version: '2.0.0', digest: `sha256:${'1'.repeat(64)}`, identityFiles: [] };
const PROVIDER_2 = { name: 'provider', version: '2.0.1', digest: `sha256:${'2'.repeat(64)}`, identityFiles: [] };
/** The manifest the passes below ran with, and another one. */
const MANIFEST = { path: '/adapters/fixture.manifest.json', digest: `sha256:${'c'.repeat(64)}` };
const OTHER_MANIFEST = { path: '/elsewhere/other.manifest.json', digest: `sha256:${'d'.repeat(64)}` };

let clock = Date.parse('2026-11-30T04:00:00.000Z');

function passingReport(changes: Partial<SuiteReport> = {}): SuiteReport {
  clock += 1000;
  return {
    passed: true,
    suiteVersion: SUITE_VERSION,
    protocol: 1,
    adapter: { name: 'fixture', version: '1.0.0', digest: DIGEST_A, manifestDigest: MANIFEST.digest },
    provider: 'none',
    driver: 'fixture',
    boundary: 'bwrap',
    cases: SUITE_CASES.map((entry) => ({ row: entry.row, title: entry.title, status: 'pass', evidence: 'fixture', detail: 'held' })),
    startedAt: new Date(clock - 500).toISOString(),
    endedAt: new Date(clock).toISOString(),
    ...changes,
  };
}

function manifestDigestOf(reading: Awaited<ReturnType<typeof readManifest>>): string {
  if (reading.kind !== 'read') throw new Error(reading.message);
  return reading.digest;
}

async function homeWith(...reports: SuiteReport[]): Promise<string> {
  const home = freshDirectory('statecraft-home');
  for (const report of reports) {
    const written = await writeQualificationRecord(home, report);
    if (written.kind !== 'written') throw new Error(written.message);
  }
  return home;
}

describe('writing a qualification record (R3.1)', () => {
  it('binds adapter, provider, suite, protocol, platform, date and every case with its evidence', async () => {
    const home = freshDirectory('statecraft-home');
    const written = await writeQualificationRecord(home, passingReport({ provider: PROVIDER_1 }));
    if (written.kind !== 'written') throw new Error(written.message);
    expect(written.path).toBe(join(qualificationsDir(home), `${written.record.id}.json`));
    const onDisk = JSON.parse(readFileSync(written.path, 'utf8')) as Record<string, unknown>;
    expect(onDisk).toMatchObject({
      adapter: { name: 'fixture', version: '1.0.0', digest: DIGEST_A, manifestDigest: MANIFEST.digest },
      provider: PROVIDER_1,
      suiteVersion: SUITE_VERSION,
      protocol: 1,
      platform: { os: process.platform, arch: process.arch, node: process.version },
    });
    expect((onDisk.cases as unknown[]).length).toBe(SUITE_CASES.length);
    expect(onDisk.cases).toContainEqual(expect.objectContaining({ row: 3, evidence: 'fixture', status: 'pass' }));
    // Atomic: no temporary file is left beside the record.
    expect(readdirSync(qualificationsDir(home))).toEqual([`${written.record.id}.json`]);
  });

  it('writes nothing for a report with a failed, not-run or missing case', async () => {
    const home = freshDirectory('statecraft-home');
    const failed = passingReport();
    failed.cases[2] = { ...failed.cases[2]!, status: 'fail' };
    failed.passed = false;
    expect(await writeQualificationRecord(home, failed)).toMatchObject({ kind: 'refused', reason: 'not-passed' });
    const partial = passingReport({ cases: passingReport().cases.slice(0, 7) });
    expect(await writeQualificationRecord(home, partial)).toMatchObject({ kind: 'refused' });
    expect((await listQualificationRecords(home)).records).toEqual([]);
  });

  // Two qualifies of one binary ending in the same second (the id names the second) once lost one
  // full pass to EEXIST, naming a temporary file that no longer existed.
  it('never rewrites a record: a second pass under the same id is written beside it, with the next free suffix, and the first is intact', async () => {
    const report = passingReport();
    const home = await homeWith(report);
    const [first] = (await listQualificationRecords(home)).records;
    const before = { mtime: statSync(first!.path).mtimeMs, text: readFileSync(first!.path, 'utf8') };
    const second = await writeQualificationRecord(home, report);
    if (second.kind !== 'written') throw new Error(second.message);
    expect(second.record.id).toBe(`${first!.id}-2`);
    expect({ mtime: statSync(first!.path).mtimeMs, text: readFileSync(first!.path, 'utf8') }).toEqual(before);
    expect((await listQualificationRecords(home)).records.map((record) => record.id).sort()).toEqual([first!.id, `${first!.id}-2`].sort());
  });
});

describe('reading records (R3.4)', () => {
  it('a missing home is an empty home', async () => {
    expect(await listQualificationRecords(join(freshDirectory(), 'nowhere'))).toEqual({ records: [], unreadable: [] });
  });

  it('lists records oldest first and shows one by id', async () => {
    const home = await homeWith(
      passingReport(),
      passingReport({ adapter: { name: 'other', version: '0.1.0', digest: DIGEST_B, manifestDigest: MANIFEST.digest } }),
    );
    const { records } = await listQualificationRecords(home);
    expect(records.map((entry) => entry.record.adapter.name)).toEqual(['fixture', 'other']);
    const shown = await showQualificationRecord(home, records[1]!.id);
    expect(shown).toMatchObject({ kind: 'found', record: { adapter: { name: 'other' } } });
  });

  it('reports a file that is not a valid record instead of skipping it, and refuses an id that is a path', async () => {
    const home = await homeWith(passingReport());
    writeFileSync(join(qualificationsDir(home), 'broken.json'), '{"kind":"statecraft-qualification"}');
    const { records, unreadable } = await listQualificationRecords(home);
    expect(records).toHaveLength(1);
    expect(unreadable[0]?.path).toContain('broken.json');
    expect(await showQualificationRecord(home, '../../etc/passwd')).toMatchObject({ kind: 'invalid' });
    expect(await showQualificationRecord(home, 'absent-1.0.0')).toMatchObject({ kind: 'not-found' });
  });
});

describe('checking a binary (R3.1, R3.3)', () => {
  it('the exact binary of a recorded pass is qualified, naming the record', async () => {
    const home = await homeWith(passingReport());
    const verdict = await checkQualification({ home, manifest: MANIFEST, adapter: { name: 'fixture', version: '1.0.0', digest: DIGEST_A } });
    expect(verdict.verdict).toBe('qualified');
    expect(verdict.reason).toContain(verdict.record!.id);
  });

  it('the same version string with a different digest is unqualified, and the reason says so (R3.3)', async () => {
    const home = await homeWith(passingReport());
    const verdict = await checkQualification({ home, manifest: MANIFEST, adapter: { name: 'fixture', version: '1.0.0', digest: DIGEST_B } });
    expect(verdict.verdict).toBe('unqualified');
    expect(verdict.reason).toContain(`this binary's digest is ${DIGEST_B}`);
    expect(verdict.reason).toContain('the same version string with different content is not the qualified binary');
    expect(verdict.reason).not.toMatch(/\bR\d/);
  });

  it('a record for another version does not transfer (R3.3)', async () => {
    const home = await homeWith(passingReport());
    const verdict = await checkQualification({ home, manifest: MANIFEST, adapter: { name: 'fixture', version: '1.0.1', digest: DIGEST_A } });
    expect(verdict).toMatchObject({ verdict: 'unqualified' });
    expect(verdict.reason).toContain('not 1.0.1');
  });

  it("a sibling adapter's pass does not transfer, even with the same bytes (R3.3)", async () => {
    const home = await homeWith(passingReport());
    const verdict = await checkQualification({ home, manifest: MANIFEST, adapter: { name: 'sibling', version: '1.0.0', digest: DIGEST_A } });
    expect(verdict.verdict).toBe('unqualified');
  });

  it('a provider upgrade invalidates the pair even when the adapter is byte-identical (R3.1)', async () => {
    const home = await homeWith(passingReport({ provider: PROVIDER_1 }));
    const adapter = { name: 'fixture', version: '1.0.0', digest: DIGEST_A };
    const asChecked = (provider: typeof PROVIDER_1) => ({
      kind: 'identified' as const,
      name: provider.name,
      version: provider.version,
      digest: provider.digest,
    });
    expect((await checkQualification({ home, manifest: MANIFEST, adapter, provider: asChecked(PROVIDER_1) })).verdict).toBe('qualified');
    const upgraded = await checkQualification({ home, manifest: MANIFEST, adapter, provider: asChecked(PROVIDER_2) });
    expect(upgraded.verdict).toBe('unqualified');
    expect(upgraded.reason).toContain('a provider upgrade invalidates');
    expect((await checkQualification({ home, manifest: MANIFEST, adapter, provider: { kind: 'identified', digest: PROVIDER_2.digest } })).verdict).toBe(
      'unqualified',
    );
    expect((await checkQualification({ home, manifest: MANIFEST, adapter })).verdict).toBe('unqualified');
  });

  it('a provider that cannot be identified is no recorded pair, and the reason says why (R3.1)', async () => {
    const home = await homeWith(passingReport({ provider: PROVIDER_1 }));
    const adapter = { name: 'fixture', version: '1.0.0', digest: DIGEST_A };
    const message = 'the provider cannot be identified: /bin/provider: the declared identity file /x/native cannot be read (ENOENT)';
    const verdict = await checkQualification({ home, manifest: MANIFEST, adapter, provider: { kind: 'unidentifiable', message } });
    expect(verdict.verdict).toBe('unqualified');
    expect(verdict.reason).toContain(message);
  });

  it('the same binary read with another manifest is unqualified, and the reason names that manifest (R2.2, R3.1)', async () => {
    const home = await homeWith(passingReport());
    const verdict = await checkQualification({ home, manifest: OTHER_MANIFEST, adapter: { name: 'fixture', version: '1.0.0', digest: DIGEST_A } });
    expect(verdict.verdict).toBe('unqualified');
    expect(verdict.reason).toContain(`not with the manifest ${OTHER_MANIFEST.path} (${OTHER_MANIFEST.digest})`);
    expect(verdict.reason).toContain(MANIFEST.digest);
  });

  it('a record made before manifests were bound qualifies no manifest: unqualified, saying to qualify again (R3.1)', async () => {
    const home = freshDirectory('statecraft-home');
    const written = await writeQualificationRecord(home, passingReport());
    if (written.kind !== 'written') throw new Error(written.message);
    // The record as it was written before the manifest's digest was part of it.
    const adapter: Record<string, unknown> = { ...written.record.adapter };
    delete adapter.manifestDigest;
    writeFileSync(written.path, JSON.stringify({ ...written.record, adapter }));
    expect((await listQualificationRecords(home)).records[0]?.record.adapter.manifestDigest).toBe('not-recorded');
    const verdict = await checkQualification({ home, manifest: MANIFEST, adapter: { name: 'fixture', version: '1.0.0', digest: DIGEST_A } });
    expect(verdict.verdict).toBe('unqualified');
    expect(verdict.reason).toContain(`qualified before manifests were bound (record ${written.record.id})`);
    expect(verdict.reason).toContain('qualify again');
    expect(verdict.reason).toContain(MANIFEST.path);
  });

  it('a record of an older suite version does not qualify under the current one', async () => {
    const home = freshDirectory('statecraft-home');
    const written = await writeQualificationRecord(home, passingReport());
    if (written.kind !== 'written') throw new Error(written.message);
    // A record as an older suite would have written it: same binary, another suite version.
    const older = { ...written.record, id: 'fixture-older', suiteVersion: 'negative-suite/0' };
    const onlyOlder = freshDirectory('statecraft-home');
    mkdirSync(qualificationsDir(onlyOlder), { recursive: true });
    writeFileSync(join(qualificationsDir(onlyOlder), 'fixture-older.json'), JSON.stringify(older));
    const verdict = await checkQualification({ home: onlyOlder, manifest: MANIFEST, adapter: { name: 'fixture', version: '1.0.0', digest: DIGEST_A } });
    expect(verdict.verdict).toBe('unqualified');
    expect(verdict.reason).toContain('negative-suite/0');
  });
});

describe("the repository's reference record (qualification/records/)", () => {
  it('binds the fixture adapter as it is now and the current suite; regenerate it when this fails', async () => {
    const recordsDir = new URL('../../../qualification/records/', import.meta.url);
    const names = readdirSync(recordsDir).filter((name) => name.startsWith('fixture-'));
    expect(names).toHaveLength(1);
    const record = QualificationRecordSchema.parse(JSON.parse(readFileSync(new URL(names[0]!, recordsDir), 'utf8')));
    const why = 'stale: run `npx tsc -b && node packages/adapter/scripts/record-reference-qualification.mjs`';
    expect(record.adapter.digest, why).toBe(await digestFile(fixtureAdapterPath()));
    expect(record.adapter.manifestDigest, why).toBe(manifestDigestOf(await readManifest(sidecarManifestPath(fixtureAdapterPath()))));
    expect(record.suiteVersion, why).toBe(SUITE_VERSION);
    expect(record.cases.map((entry) => entry.status)).toEqual(SUITE_CASES.map(() => 'pass'));
  });
});
