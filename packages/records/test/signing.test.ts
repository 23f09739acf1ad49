import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dir } from 'tmp-promise';
import { describe, expect, it } from 'vitest';
import {
  generateSigningKey,
  readSigningKey,
  readTrustedKeys,
  signedBundlePath,
  signStatement,
  verifySignedBundle,
  type InTotoStatement,
} from '@statecraft/records';

const record = { kind: 'example', value: 1, nested: { b: 2, a: 1 } };
const statement: InTotoStatement = {
  _type: 'https://in-toto.io/Statement/v1',
  subject: [{ name: 'candidate-commit', digest: { gitCommit: 'a'.repeat(40) } }],
  predicateType: 'https://statecraft.dev/receipt/v1',
  predicate: record,
};

async function homeWithKey() {
  const home = (await dir({ unsafeCleanup: true })).path;
  const made = await generateSigningKey(home, { replace: false });
  if (!('key' in made)) throw new Error('no key made');
  const publicPath = join(home, 'trusted.pub');
  writeFileSync(publicPath, made.key.publicKeyPem);
  return { home, key: made.key, trusted: await readTrustedKeys([publicPath], {}) };
}

describe('signing records', () => {
  it('makes a P-256 key readable by its owner only, and keeps it unless told', async () => {
    const { home, key } = await homeWithKey();
    expect(statSync(key.path).mode & 0o777).toBe(0o600);
    expect(await generateSigningKey(home, { replace: false })).toEqual({ existing: key.path });
    expect((await readSigningKey(home, {}))?.keyId).toBe(key.keyId);
  });

  it('prefers STATECRAFT_SIGNING_KEY, and names a file that is no key', async () => {
    const { home } = await homeWithKey();
    const other = await homeWithKey();
    expect((await readSigningKey(home, { STATECRAFT_SIGNING_KEY: other.key.path }))?.keyId).toBe(other.key.keyId);
    const bad = join(home, 'bad.pem');
    writeFileSync(bad, 'not a key');
    await expect(readSigningKey(home, { STATECRAFT_SIGNING_KEY: bad })).rejects.toThrow(bad);
  });

  it('verifies a bundle over the record with the trusted key; other keys, other bytes and no bundle are told apart', async () => {
    const { key, trusted } = await homeWithKey();
    const other = await homeWithKey();
    const bundle = await signStatement(key, statement);
    expect(bundle.mediaType).toBe('application/vnd.dev.sigstore.bundle.v0.3+json');
    const reordered = { nested: { a: 1, b: 2 }, value: 1, kind: 'example' };
    expect(await verifySignedBundle(JSON.stringify(bundle), { record: reordered }, trusted)).toMatchObject({ status: 'verified', keyId: key.keyId });
    expect(await verifySignedBundle(bundle, { record }, other.trusted)).toMatchObject({ status: 'untrusted', keyId: key.keyId });
    expect(await verifySignedBundle(undefined, { record }, trusted)).toEqual({ status: 'unsigned' });
    expect(await verifySignedBundle(bundle, { record: { ...record, value: 2 } }, trusted)).toMatchObject({
      status: 'invalid',
      reason: expect.stringMatching(/predicate/) as unknown,
    });
    // Another key's signature under the trusted key's hint.
    const forged = await signStatement({ ...other.key, keyId: key.keyId }, statement);
    expect(await verifySignedBundle(forged, { record }, trusted)).toMatchObject({
      status: 'invalid',
      reason: expect.stringMatching(/^dsseEnvelope\.signatures/) as unknown,
    });
    expect(await verifySignedBundle('{', { record }, trusted)).toMatchObject({ status: 'invalid' });
  });

  it('keeps a record’s bundle beside it', () => {
    expect(signedBundlePath('/h/acceptance-1/receipt.json')).toBe('/h/acceptance-1/receipt.sigstore.json');
    expect(signedBundlePath('/h/qualifications/x-1.json')).toBe('/h/qualifications/x-1.sigstore.json');
  });
});
