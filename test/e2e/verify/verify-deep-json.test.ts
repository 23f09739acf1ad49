import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { signingKeyPaths } from '@statecraft/records';
import { describe, expect, it } from 'vitest';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// A hostile pass on `statecraft verify` and `collect` (issue 32): the JSON a crafted bundle holds
// is the attacker's, nesting included. Ten thousand brackets deep is 20 kB, and comparing such a
// value recursively overflows the stack: verify must still answer (a finding naming the file,
// exit 1), and collect must refuse that bundle by name and go on, never fail as a whole.

const scratch = scratchDirectories();
const DEPTH = 10_000;
const deep = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;

interface Verified {
  findings: { check: string; file: string; field?: string; message: string }[];
}

/** A Sigstore bundle (v0.3, a DSSE envelope of an in-toto statement) over `predicate`, its signature junk. */
function sigstoreBundle(predicateText: string, predicateType: string): string {
  const payload = `{"_type":"https://in-toto.io/Statement/v1","subject":[{"name":"x","digest":{"sha256":"${'0'.repeat(64)}"}}],"predicateType":"${predicateType}","predicate":${predicateText}}`;
  return JSON.stringify({
    mediaType: 'application/vnd.dev.sigstore.bundle.v0.3+json',
    verificationMaterial: { publicKey: { hint: 'a-key' }, tlogEntries: [], timestampVerificationData: { rfc3161Timestamps: [] } },
    dsseEnvelope: {
      payload: Buffer.from(payload).toString('base64'),
      payloadType: 'application/vnd.in-toto+json',
      signatures: [{ sig: Buffer.from('not a signature').toString('base64'), keyid: '' }],
    },
  });
}

/** A directory bundle: a manifest in its one form listing `files`, and `beside` written unlisted (the manifest's signature). */
async function craftedBundle(files: { path: string; role: string; text: string }[], beside: Record<string, string> = {}): Promise<string> {
  const root = join(await scratch.make('statecraft-deep-json'), 'bundle');
  const manifest = {
    kind: 'statecraft-bundle',
    bundleVersion: 1,
    exportedAt: new Date().toISOString(),
    statecraft: { version: '0.0.0' },
    target: { path: '/nowhere', key: 'nowhere' },
    runId: 'run-deep',
    chainTip: { seq: 0, digest: '0'.repeat(64) },
    files: files.map((file) => ({
      path: file.path,
      role: file.role,
      sha256: createHash('sha256').update(file.text).digest('hex'),
      bytes: Buffer.byteLength(file.text),
    })),
  };
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'manifest.json'), `${JSON.stringify(manifest)}\n`);
  for (const file of [...files, ...Object.entries(beside).map(([path, text]) => ({ path, text }))]) {
    mkdirSync(join(root, file.path, '..'), { recursive: true });
    writeFileSync(join(root, file.path), file.text);
  }
  return root;
}

async function verify(bundle: string) {
  return runStatecraft(['verify', bundle, '--json'], { home: join(await scratch.make('statecraft-no-home'), 'none') });
}

const receiptPath = 'attempts/run-deep/1/acceptance-1/receipt.json';

describe('verify answers for JSON nested past any record', () => {
  it('a manifest signature whose predicate is nested ten thousand deep is a finding, not a failure', async () => {
    const bundle = await craftedBundle([], { 'manifest.sigstore.json': sigstoreBundle(deep, 'https://statecraft.dev/bundle-manifest/v1') });
    const run = await verify(bundle);
    expect(run.exitCode, `${run.stderr}${run.stdout}`).toBe(1);
    expect(parseJson<Verified>(run).findings.map((finding) => finding.file)).toContain('manifest.sigstore.json');
  });

  it('a signed receipt nested ten thousand deep is a finding, not a failure', async () => {
    const bundle = await craftedBundle([
      { path: receiptPath, role: 'receipt', text: `{"checks":${deep}}` },
      { path: receiptPath.replace(/\.json$/, '.sigstore.json'), role: 'receipt-signature', text: sigstoreBundle('{}', 'https://statecraft.dev/receipt/v1') },
    ]);
    const run = await verify(bundle);
    expect(run.exitCode, `${run.stderr}${run.stdout}`).toBe(1);
    expect(parseJson<Verified>(run).findings.length).toBeGreaterThan(0);
  });

  it('collect refuses such a bundle by its path, and does not fail as a whole', async () => {
    const home = await scratch.make('statecraft-collect-home');
    expect((await runStatecraft(['keys', 'generate'], { home })).exitCode).toBe(0);
    const repository = await scratch.make('statecraft-collect-target');
    await execa('git', ['init', '-q', repository]);
    await execa('git', ['-C', repository, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '--allow-empty', '-m', 'base']);
    const bundle = await craftedBundle([], { 'manifest.sigstore.json': sigstoreBundle(deep, 'https://statecraft.dev/bundle-manifest/v1') });
    const run = await runStatecraft(['collect', bundle, repository, '--trust', signingKeyPaths(home).publicKey], { home });
    expect(run.exitCode, run.stderr).toBe(2);
    expect(run.stderr).toContain(`${bundle}: does not verify`);
  });
});
