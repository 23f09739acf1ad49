import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readSigningKey, receiptStatement, ReceiptSchema, signStatement, signingKeyPaths } from '@statecraft/records';
import { dir, type DirectoryResult } from 'tmp-promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgedRun, operatorRepository } from '../../fixtures/operator-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// `statecraft verify --trust`: a bundle's signatures against the keys an operator trusts, on a
// machine with no product home.

interface Account {
  runId: string;
  records: { chain: string };
  acceptance: 'not-recorded' | { verdict: string };
}
interface Verified {
  trustedKeys: string[];
  holds: { check: string; message: string }[];
  findings: { check: string; file: string; field?: string; message: string }[];
}
interface Manifest {
  files: { path: string; role: string; sha256: string; bytes: number }[];
}

const targets = useTestTargets({ sharedRepository: false });
let scratch: DirectoryResult;
let otherHome: string;
let exported: string;
let receiptPath: string;
let intentAdapterDigest: string;
let copies = 0;

beforeAll(async () => {
  scratch = await dir({ unsafeCleanup: true });
  const home = targets.home.path;
  expect((await runStatecraft(['keys', 'generate'], { home })).exitCode).toBe(0);
  otherHome = join(scratch.path, 'other-home');
  expect((await runStatecraft(['keys', 'generate'], { home: otherHome })).exitCode).toBe(0);
  const repository = await operatorRepository(targets);
  const account = await judgedRun<Account>(targets, repository, 'forty-two');
  expect(account.acceptance !== 'not-recorded' && account.acceptance.verdict).toBe('accepted');
  const targetDirectory = join(account.records.chain, '..');
  receiptPath = `attempts/${account.runId}/1/acceptance-1/receipt.json`;
  const signature = join(targetDirectory, receiptPath.replace(/\.json$/, '.sigstore.json'));
  // accept signed the receipt with the home's key.
  expect(existsSync(signature)).toBe(true);
  const intent = JSON.parse(readFileSync(account.records.chain, 'utf8').split('\n')[0] ?? '') as { posture: { adapter: { digest: string } } };
  intentAdapterDigest = intent.posture.adapter.digest;
  exported = join(scratch.path, 'exported/');
  const written = await runStatecraft(['export', repository.path, account.runId, '-o', exported], { home });
  expect(written.exitCode, written.stderr).toBe(0);
}, 180_000);
afterAll(async () => scratch.cleanup());

async function signReceipt(path: string, home: string) {
  const key = await readSigningKey(home, {});
  if (key === undefined) throw new Error(`no signing key in ${home}`);
  return signStatement(key, receiptStatement(ReceiptSchema.parse(JSON.parse(readFileSync(path, 'utf8')))));
}

const trust = (home: string) => ['--trust', signingKeyPaths(home).publicKey];

async function verify(bundle: string, ...extra: string[]) {
  return runStatecraft(['verify', bundle, '--json', ...extra], { home: join(scratch.path, 'no-such-home') });
}

function copy(): string {
  copies += 1;
  const to = join(scratch.path, `copy-${copies}`);
  cpSync(exported, to, { recursive: true });
  return to;
}

/**
 * Writes a file into the bundle and the manifest, as a forger who knows the format would; one who
 * holds no trusted key cannot sign the new manifest, and removes the signature it no longer matches.
 */
function reseal(bundle: string, path: string, role: string, bytes: Buffer, keepManifestSignature = false): void {
  mkdirSync(dirname(join(bundle, path)), { recursive: true });
  writeFileSync(join(bundle, path), bytes);
  const manifest = JSON.parse(readFileSync(join(bundle, 'manifest.json'), 'utf8')) as Manifest;
  const entry = { path, role, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
  const at = manifest.files.findIndex((file) => file.path === path);
  if (at === -1) manifest.files.push(entry);
  else manifest.files[at] = entry;
  writeFileSync(join(bundle, 'manifest.json'), `${JSON.stringify(manifest)}\n`);
  if (!keepManifestSignature) rmSync(join(bundle, 'manifest.sigstore.json'), { force: true });
}

describe('statecraft verify --trust', () => {
  it("carries the signer's public key, and the receipt's signature verifies with and without trust", async () => {
    const manifest = JSON.parse(readFileSync(join(exported, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.files.filter((file) => file.role === 'public-key').map((file) => file.path)).toHaveLength(1);
    expect(manifest.files.some((file) => file.role === 'receipt-signature')).toBe(true);
    const trusted = await verify(exported, ...trust(targets.home.path));
    expect(trusted.exitCode, trusted.stdout).toBe(0);
    const value = parseJson<Verified>(trusted);
    expect(value.trustedKeys).toHaveLength(1);
    expect(value.holds.find((hold) => hold.check === 'signatures')?.message).toMatch(/verify against a trusted key/);
    const untrusted = await verify(exported);
    expect(untrusted.exitCode, untrusted.stdout).toBe(0);
    expect(parseJson<Verified>(untrusted).holds.find((hold) => hold.check === 'signatures')?.message).toMatch(/none trusted/);
  });

  it('names a receipt signed by a key that is not trusted', async () => {
    // The bundle as exported, with only the other key trusted.
    const other = await verify(exported, ...trust(otherHome));
    expect(other.exitCode, other.stdout).toBe(1);
    const signature = receiptPath.replace(/\.json$/, '.sigstore.json');
    expect(parseJson<Verified>(other).findings).toContainEqual(
      expect.objectContaining({
        check: 'signatures',
        file: signature,
        field: 'verificationMaterial.publicKey.hint',
        message: expect.stringMatching(/not a trusted key/) as unknown,
      }),
    );
    // Signed again by the other key: the home's key is trusted, the signature is not its.
    const bundle = copy();
    reseal(bundle, signature, 'receipt-signature', Buffer.from(JSON.stringify(await signReceipt(join(bundle, receiptPath), otherHome))));
    const resigned = await verify(bundle, ...trust(targets.home.path));
    expect(resigned.exitCode, resigned.stdout).toBe(1);
    expect(parseJson<Verified>(resigned).findings).toContainEqual(expect.objectContaining({ check: 'signatures', file: signature }));
  });

  it('names a receipt changed after it was signed', async () => {
    const bundle = copy();
    const receipt = JSON.parse(readFileSync(join(bundle, receiptPath), 'utf8')) as { policyDigest: string };
    receipt.policyDigest = `sha256:${'0'.repeat(64)}`;
    reseal(bundle, receiptPath, 'receipt', Buffer.from(`${JSON.stringify(receipt, null, 2)}\n`));
    const verified = await verify(bundle, ...trust(targets.home.path));
    expect(verified.exitCode).toBe(1);
    const signature = receiptPath.replace(/\.json$/, '.sigstore.json');
    expect(parseJson<Verified>(verified).findings).toContainEqual(
      expect.objectContaining({ check: 'signatures', file: signature, message: expect.stringMatching(/does not verify/) as unknown }),
    );
  });

  it('signs the manifest, and names one changed after it was signed, and one left unsigned under --trust', async () => {
    expect(existsSync(join(exported, 'manifest.sigstore.json'))).toBe(true);
    const holds = parseJson<Verified>(await verify(exported, ...trust(targets.home.path))).holds;
    expect(holds).toContainEqual({ check: 'signatures', message: expect.stringMatching(/signatures? verify against a trusted key/) as unknown });
    const bundle = copy();
    reseal(bundle, 'extra.txt', 'check-output', Buffer.from('added after the export\n'), true);
    const changed = await verify(bundle);
    expect(changed.exitCode).toBe(1);
    expect(parseJson<Verified>(changed).findings).toContainEqual(
      expect.objectContaining({ check: 'signatures', file: 'manifest.sigstore.json', message: expect.stringMatching(/^does not verify/) as unknown }),
    );
    rmSync(join(bundle, 'manifest.sigstore.json'));
    const unsigned = await verify(bundle, ...trust(targets.home.path));
    expect(parseJson<Verified>(unsigned).findings).toContainEqual(
      expect.objectContaining({ check: 'signatures', file: 'manifest.json', message: expect.stringMatching(/^is unsigned/) as unknown }),
    );
  });

  it('does not believe an unsigned qualification record under --trust', async () => {
    const bundle = copy();
    const reference = JSON.parse(readFileSync(new URL('../../../qualification/records/' + referenceRecordName(), import.meta.url), 'utf8')) as {
      id: string;
      adapter: { digest: string };
    };
    // Forged for the adapter the run used: the one thing that can tell it from a real one is a signature.
    reseal(
      bundle,
      `qualifications/${reference.id}.json`,
      'qualification',
      Buffer.from(`${JSON.stringify({ ...reference, adapter: { ...reference.adapter, digest: intentAdapterDigest } }, null, 2)}\n`),
    );
    const verified = await verify(bundle, ...trust(targets.home.path));
    expect(verified.exitCode, verified.stdout).toBe(1);
    const { findings } = parseJson<Verified>(verified);
    expect(findings).toContainEqual(
      expect.objectContaining({
        check: 'signatures',
        file: `qualifications/${reference.id}.json`,
        message: expect.stringMatching(/unsigned.*unqualified/) as unknown,
      }),
    );
    // Without trust configured, an unsigned record is said, not a finding.
    expect((await verify(bundle)).exitCode).toBe(0);
  });
});

function referenceRecordName(): string {
  const directory = new URL('../../../qualification/records/', import.meta.url);
  const names = readdirSync(directory).filter((name) => name.startsWith('fixture-') && name.endsWith('.json') && !name.endsWith('.sigstore.json'));
  if (names[0] === undefined) throw new Error('no reference qualification record of the fixture adapter');
  return names[0];
}
