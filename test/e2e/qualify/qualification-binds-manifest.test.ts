import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureAdapterPath, sidecarManifestPath } from '@statecraft/adapter';
import { createProductHome, useTestTargets } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// A qualification binds the manifest the suite ran with (R2.2, R3.1): the manifest decides the
// capability tokens, the environment passed and the writable managed paths, so the same adapter
// bytes read with another manifest are not the qualified adapter — for `qualifications check` and
// for the label `run` records (R3.2).

const scratch = scratchDirectories();
const targets = useTestTargets();
const FIXTURE = fixtureAdapterPath();

interface CheckJson {
  verdict: string;
  reason: string;
  manifest: { path: string; digest: string };
  record: { id: string; path: string } | null;
}

interface RunJson {
  outcome: string;
  posture: { qualification: { verdict: string; reason: string } };
}

/** The fixture's manifest with one more name passed into the child: the same bytes, another manifest. */
let otherManifest: string;

beforeAll(async () => {
  const qualified = await runStatecraft(['qualify', '--fixture', '--json'], { home: targets.home.path, timeoutMs: 120_000 });
  expect(qualified.exitCode, qualified.stderr).toBe(0);
  const manifest = JSON.parse(await readFile(sidecarManifestPath(FIXTURE), 'utf8')) as { environment?: { pass: unknown[] } };
  otherManifest = join(await scratch.make('statecraft-other-manifest-'), 'other.manifest.json');
  const pass = [...(manifest.environment?.pass ?? []), { name: 'DATABASE_URL', secret: false, why: 'added after qualification' }];
  await writeFile(otherManifest, JSON.stringify({ ...manifest, environment: { pass } }, null, 2));
}, 150_000);

function check(home: string, ...extra: string[]) {
  return runStatecraft(['qualifications', 'check', FIXTURE, ...extra, '--json'], { home });
}

function runFixture(...extra: string[]) {
  return runStatecraft(['run', targets.repository.path, '--adapter', FIXTURE, ...extra, '--prompt', 'scenario: complete', '--json'], {
    home: targets.home.path,
  });
}

describe('a qualification binds the manifest the suite ran with (R2.2, R3.1)', () => {
  it('qualifications check reads the qualified bytes with their own manifest as qualified, and with another manifest as unqualified, naming it', async () => {
    const own = await check(targets.home.path);
    expect(own.exitCode, own.stderr).toBe(0);
    const qualified = parseJson<CheckJson>(own);
    expect(qualified.verdict).toBe('qualified');
    expect(qualified.reason).toContain(`with the manifest ${sidecarManifestPath(FIXTURE)}`);

    const other = await check(targets.home.path, '--manifest', otherManifest);
    expect(other.exitCode).toBe(1);
    const unqualified = parseJson<CheckJson>(other);
    expect(unqualified.verdict).toBe('unqualified');
    expect(unqualified.manifest.path).toBe(otherManifest);
    expect(unqualified.manifest.digest).not.toBe(qualified.manifest.digest);
    expect(unqualified.reason).toContain(`not with the manifest ${otherManifest} (${unqualified.manifest.digest})`);
    expect(unqualified.reason).toContain(qualified.manifest.digest);
    expect(unqualified.record).toBeNull();
  });

  it('run records the same bytes read with another manifest as unqualified, naming the manifest; with their own, qualified (R3.2)', async () => {
    const own = parseJson<RunJson>(await runFixture());
    expect(own.posture.qualification.verdict).toBe('qualified');
    const other = await runFixture('--manifest', otherManifest);
    // Unqualified adapters run, labelled (R3.2): the attempt completes.
    expect(other.exitCode, other.stderr).toBe(0);
    const recorded = parseJson<RunJson>(other);
    expect(recorded.outcome).toBe('completed');
    expect(recorded.posture.qualification.verdict).toBe('unqualified');
    expect(recorded.posture.qualification.reason).toContain(`not with the manifest ${otherManifest}`);
  });

  it('a record made before manifests were bound is read as unqualified, saying to qualify again', async () => {
    const listed = parseJson<{ records: Array<{ id: string; path: string }> }>(
      await runStatecraft(['qualifications', 'list', '--json'], { home: targets.home.path }),
    );
    const [entry] = listed.records;
    if (entry === undefined) throw new Error('the qualification of beforeAll is not listed');
    // The same record as it was written before it carried the manifest's digest.
    const record = JSON.parse(await readFile(entry.path, 'utf8')) as { adapter: Record<string, unknown> };
    const adapter = { ...record.adapter };
    delete adapter.manifestDigest;
    const olderHome = await createProductHome();
    scratch.keep(olderHome);
    await mkdir(join(olderHome.path, 'qualifications'));
    await writeFile(join(olderHome.path, 'qualifications', `${entry.id}.json`), JSON.stringify({ ...record, adapter }, null, 2));
    const answer = await check(olderHome.path);
    expect(answer.exitCode).toBe(1);
    const verdict = parseJson<CheckJson>(answer);
    expect(verdict.verdict).toBe('unqualified');
    expect(verdict.reason).toContain(`qualified before manifests were bound (record ${entry.id})`);
    expect(verdict.reason).toContain('qualify again');
  });
});
