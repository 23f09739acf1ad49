import { createHash } from 'node:crypto';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dir, type DirectoryResult } from 'tmp-promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgedRun, operatorRepository } from '../../fixtures/operator-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// `statecraft verify` of a bundle changed after export: each change gives a finding naming the
// file and the field. Structural changes re-seal the manifest, as a careful forger would, so the
// finding comes from the records themselves and not only from the manifest's digest.

interface Account {
  runId: string;
  acceptance: 'not-recorded' | { verdict: string };
}
interface Finding {
  check: string;
  file: string;
  field?: string;
  message: string;
}
interface Verified {
  findings: Finding[];
}
interface Manifest {
  files: { path: string; role: string; sha256: string; bytes: number }[];
}

const targets = useTestTargets({ sharedRepository: false });
let scratch: DirectoryResult;
let exported: string;
let exportedTar: string;
let runId: string;
let copies = 0;

beforeAll(async () => {
  scratch = await dir({ unsafeCleanup: true });
  const repository = await operatorRepository(targets);
  const account = await judgedRun<Account>(targets, repository, 'forty-two');
  expect(account.acceptance !== 'not-recorded' && account.acceptance.verdict).toBe('accepted');
  runId = account.runId;
  exported = join(scratch.path, 'exported/');
  const written = await runStatecraft(['export', repository.path, runId, '-o', exported], { home: targets.home.path });
  expect(written.exitCode, written.stderr).toBe(0);
  exportedTar = join(scratch.path, 'exported.tar');
  expect((await runStatecraft(['export', repository.path, runId, '-o', exportedTar], { home: targets.home.path })).exitCode).toBe(0);
}, 180_000);
afterAll(async () => scratch.cleanup());

/** A fresh copy of the exported bundle to change. */
function copy(): string {
  copies += 1;
  const to = join(scratch.path, `copy-${copies}`);
  cpSync(exported, to, { recursive: true });
  return to;
}

async function verify(bundle: string, ...extra: string[]) {
  // No product home: verify needs none.
  return runStatecraft(['verify', bundle, '--json', ...extra], { home: join(scratch.path, 'no-such-home') });
}

function listFiles(root: string, under = ''): string[] {
  return readdirSync(join(root, under), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(root, join(under, entry.name)) : [join(under, entry.name)],
  );
}

/** Writes a file of the bundle and its digest into the manifest, in the manifest's one form. */
function reseal(bundle: string, path: string, bytes: Buffer): void {
  writeFileSync(join(bundle, path), bytes);
  const manifest = JSON.parse(readFileSync(join(bundle, 'manifest.json'), 'utf8')) as Manifest;
  const file = manifest.files.find((entry) => entry.path === path);
  if (file === undefined) throw new Error(`${path} is not in the manifest`);
  file.sha256 = createHash('sha256').update(bytes).digest('hex');
  file.bytes = bytes.length;
  writeFileSync(join(bundle, 'manifest.json'), `${JSON.stringify(manifest)}\n`);
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The chain lines of the bundle's records, rewritten by `edit` and linked again in order (each `prev` the digest of the line before, where seqs follow). */
function relinkRecords(bundle: string, edit: (records: Record<string, unknown>[]) => Record<string, unknown>[]): void {
  const path = join(bundle, 'chain/records.jsonl');
  const records = edit(
    readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>),
  );
  const lines: string[] = [];
  records.forEach((record, index) => {
    const previous = records[index - 1];
    if (previous !== undefined && previous.seq === (record.seq as number) - 1) record.prev = sha256(lines[index - 1] ?? '');
    if (record.kind === 'outcome' && records[0]?.kind === 'intent') record.intent = sha256(lines[0] ?? '');
    if (record.kind === 'acceptance') {
      const outcome = records.findIndex((other) => other.kind === 'outcome');
      if (outcome !== -1 && outcome < index) record.outcome = sha256(lines[outcome] ?? '');
    }
    lines.push(JSON.stringify(record));
  });
  reseal(bundle, 'chain/records.jsonl', Buffer.from(lines.map((line) => `${line}\n`).join('')));
}

const named = (findings: readonly Finding[], file: string, field?: string) =>
  findings.some((finding) => finding.file === file && (field === undefined || finding.field === field));

describe('statecraft verify of a changed bundle', () => {
  it('names the file when any byte of any file changes', async () => {
    const files = listFiles(exported);
    expect(files.length).toBeGreaterThanOrEqual(10);
    for (const file of files) {
      const bundle = copy();
      const bytes = readFileSync(join(bundle, file));
      const at = Math.floor(bytes.length / 2);
      bytes[at] = (bytes[at] ?? 0) ^ 0x01;
      // An empty file (a check that printed nothing) has no byte to change: one is added.
      writeFileSync(join(bundle, file), bytes.length === 0 ? Buffer.from('x') : bytes);
      const verified = await verify(bundle);
      if (file === 'manifest.json') {
        expect([1, 2], file).toContain(verified.exitCode);
        expect(verified.stdout + verified.stderr, file).toContain('manifest.json');
      } else {
        expect(verified.exitCode, `${file}: ${verified.stdout}${verified.stderr}`).toBe(1);
        expect(named(parseJson<Verified>(verified).findings, file), `${file}: ${verified.stdout}`).toBe(true);
      }
    }
  }, 300_000);

  it('names a removed record, and the link it leaves without its predecessor', async () => {
    const bundle = copy();
    relinkRecords(bundle, (records) => records.filter((record) => record.kind !== 'outcome'));
    const verified = await verify(bundle);
    expect(verified.exitCode).toBe(1);
    const { findings } = parseJson<Verified>(verified);
    expect(
      findings.some((finding) => finding.file === 'chain/records.jsonl' && /a record was removed/.test(finding.message)),
      verified.stdout,
    ).toBe(true);
  });

  it('names every record removed, whichever it is: the files it named are left without it', async () => {
    for (const kind of ['intent', 'outcome', 'acceptance']) {
      const bundle = copy();
      relinkRecords(bundle, (records) => records.filter((record) => record.kind !== kind));
      const verified = await verify(bundle);
      expect(verified.exitCode, kind).toBe(1);
      const { findings } = parseJson<Verified>(verified);
      expect(
        findings.some((finding) => /was removed/.test(finding.message)),
        `${kind}: ${verified.stdout}`,
      ).toBe(true);
    }
  });

  it('names records out of chain order', async () => {
    const bundle = copy();
    const path = join(bundle, 'chain/records.jsonl');
    const lines = readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line !== '');
    reseal(bundle, 'chain/records.jsonl', Buffer.from([lines[1], lines[0], ...lines.slice(2)].map((line) => `${line}\n`).join('')));
    const verified = await verify(bundle);
    expect(verified.exitCode).toBe(1);
    const { findings } = parseJson<Verified>(verified);
    expect(named(findings, 'chain/records.jsonl', 'line 2 seq'), verified.stdout).toBe(true);
  });

  it('names a broken link', async () => {
    const bundle = copy();
    const path = join(bundle, 'chain/records.jsonl');
    const lines = readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line !== '');
    const second = JSON.parse(lines[1] ?? '') as { prev: string };
    second.prev = sha256('another line');
    reseal(bundle, 'chain/records.jsonl', Buffer.from([lines[0], JSON.stringify(second), ...lines.slice(2)].map((line) => `${line}\n`).join('')));
    const verified = await verify(bundle);
    expect(verified.exitCode).toBe(1);
    const { findings } = parseJson<Verified>(verified);
    expect(
      findings.some((finding) => finding.field === 'line 2 prev' && /a link is broken/.test(finding.message)),
      verified.stdout,
    ).toBe(true);
    // The same findings for a person: each naming the file and the field, in 80 columns.
    const text = await runStatecraft(['verify', bundle], { home: join(scratch.path, 'no-such-home') });
    expect(text.exitCode).toBe(1);
    expect(text.stdout).toContain('chain/records.jsonl (line 2 prev):');
    for (const line of text.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
  });

  it('names a recorded outcome that the kept stream does not give', async () => {
    const bundle = copy();
    relinkRecords(bundle, (records) =>
      records.map((record) => {
        if (record.kind !== 'outcome') return record;
        const result = record.result as Record<string, unknown>;
        return { ...record, outcome: 'failed', result: { ...result, outcome: 'failed' } };
      }),
    );
    const verified = await verify(bundle);
    expect(verified.exitCode).toBe(1);
    const { findings } = parseJson<Verified>(verified);
    const outcome = findings.find((finding) => finding.check === 'outcome' && finding.field === 'line 2 outcome');
    expect(outcome?.message, verified.stdout).toMatch(/records failed.*the kept stream classifies as completed/);
  });

  it('names a receipt whose candidate was edited', async () => {
    const bundle = copy();
    const path = `attempts/${runId}/1/acceptance-1/receipt.json`;
    const receipt = JSON.parse(readFileSync(join(bundle, path), 'utf8')) as { candidate: { commit: string } };
    receipt.candidate.commit = 'f'.repeat(40);
    reseal(bundle, path, Buffer.from(`${JSON.stringify(receipt, null, 2)}\n`));
    const verified = await verify(bundle);
    expect(verified.exitCode).toBe(1);
    const { findings } = parseJson<Verified>(verified);
    expect(named(findings, path, 'candidate.commit'), verified.stdout).toBe(true);
  });

  it('names the stream changed inside a tar, and refuses a truncated tar (exit 2)', async () => {
    const tar = readFileSync(exportedTar);
    const stream = `attempts/${runId}/1/stream.ndjson`;
    // The stream's first line sits in the tar right after its 512-byte header, which names it.
    let header = tar.indexOf(Buffer.from(`${stream}\0`));
    while (header % 512 !== 0) header = tar.indexOf(Buffer.from(`${stream}\0`), header + 1);
    const changed = Buffer.from(tar);
    const at = header + 512 + 10;
    changed[at] = (changed[at] ?? 0) ^ 0x01;
    const changedPath = join(scratch.path, 'changed.tar');
    writeFileSync(changedPath, changed);
    const verified = await verify(changedPath);
    expect(verified.exitCode, verified.stdout).toBe(1);
    expect(named(parseJson<Verified>(verified).findings, stream), `${verified.stdout} ${verified.stderr}`).toBe(true);

    const truncated = join(scratch.path, 'truncated.tar');
    writeFileSync(truncated, tar.subarray(0, Math.floor(tar.length / 2)));
    const refused = await verify(truncated);
    expect(refused.exitCode, refused.stdout.slice(-1500)).toBe(2);
    expect(parseJson<{ refused: { message: string } }>(refused).refused.message).toContain('truncated.tar');
  });

  it('refuses a bundle that is not one, naming it (exit 2)', async () => {
    const notTar = join(scratch.path, 'not-a-bundle.tar');
    writeFileSync(notTar, 'just some text\n'.repeat(100));
    const empty = (await dir({ tmpdir: scratch.path })).path;
    for (const bundle of [notTar, empty, join(scratch.path, 'missing.tar')]) {
      const verified = await verify(bundle);
      expect(verified.exitCode, bundle).toBe(2);
      expect(parseJson<{ refused: { message: string } }>(verified).refused.message).toContain(bundle === empty ? 'manifest.json' : bundle);
    }
  });
});
