import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// `statecraft keys generate` makes the product home's signing key pair (ECDSA P-256, the private
// key readable by its owner only) and prints the public key and its id; `keys show` prints them
// again; a second generate keeps the key unless told; STATECRAFT_SIGNING_KEY names another key,
// and one that is not a P-256 private key is refused naming the file.

const scratch = scratchDirectories();

interface KeyDocument {
  keyId: string;
  algorithm: string;
  publicKey: string;
  source: string;
  privateKeyPath: string;
  publicKeyPath: string | null;
  replaced?: boolean;
  signingWith?: string | null;
}

describe('keys generate and keys show', () => {
  it('makes a P-256 pair under the product home, the private key 0600, and prints the public key and its id', async () => {
    const home = await scratch.make('statecraft-keys-home');
    const made = await runStatecraft(['keys', 'generate', '--json'], { home });
    expect(made.exitCode, made.stderr).toBe(0);
    const key = parseJson<KeyDocument>(made);
    expect(key).toMatchObject({ algorithm: 'ecdsa-p256-sha256', source: 'product-home', replaced: false, signingWith: null });
    expect(key.keyId).toMatch(/^[0-9a-f]{64}$/);
    expect(key.privateKeyPath.startsWith(`${home}/`)).toBe(true);
    expect(statSync(key.privateKeyPath).mode & 0o777).toBe(0o600);
    expect(statSync(join(key.privateKeyPath, '..')).mode & 0o077).toBe(0);
    // The printed public key is the private key's public half, and the id is its SPKI's SHA-256.
    const derived = createPublicKey(readFileSync(key.privateKeyPath, 'utf8'));
    expect(key.publicKey).toBe(derived.export({ type: 'spki', format: 'pem' }));
    expect(derived.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(readFileSync(key.publicKeyPath ?? '', 'utf8')).toBe(key.publicKey);
    expect(made.stdout).not.toContain('PRIVATE KEY');

    const shown = await runStatecraft(['keys', 'show'], { home });
    expect(shown.exitCode, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`signing key ${key.keyId}`);
    expect(shown.stdout).toContain(key.publicKey.trimEnd());
    expect(shown.stdout).not.toContain('PRIVATE KEY');
    for (const line of shown.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80 + home.length);
    const shownJson = parseJson<KeyDocument>(await runStatecraft(['keys', 'show', '--json'], { home }));
    expect(shownJson).toEqual({
      keyId: key.keyId,
      algorithm: key.algorithm,
      publicKey: key.publicKey,
      source: 'product-home',
      privateKeyPath: key.privateKeyPath,
      publicKeyPath: key.publicKeyPath,
    });
  });

  it('a second generate refuses (exit 2) and changes nothing; --replace makes a new key', async () => {
    const home = await scratch.make('statecraft-keys-home');
    const first = parseJson<KeyDocument>(await runStatecraft(['keys', 'generate', '--json'], { home }));
    const bytes = readFileSync(first.privateKeyPath, 'utf8');
    const again = await runStatecraft(['keys', 'generate'], { home });
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain(first.privateKeyPath);
    expect(readFileSync(first.privateKeyPath, 'utf8')).toBe(bytes);
    const againJson = await runStatecraft(['keys', 'generate', '--json'], { home });
    expect(againJson.exitCode).toBe(2);
    expect(parseJson(againJson)).toHaveProperty('refused');
    const replaced = await runStatecraft(['keys', 'generate', '--replace', '--json'], { home });
    expect(replaced.exitCode, replaced.stderr).toBe(0);
    const second = parseJson<KeyDocument>(replaced);
    expect(second.replaced).toBe(true);
    expect(second.keyId).not.toBe(first.keyId);
    expect(statSync(second.privateKeyPath).mode & 0o777).toBe(0o600);
  });

  it('keys show with no key refuses (exit 2) and says how to make one', async () => {
    const home = await scratch.make('statecraft-keys-home');
    const shown = await runStatecraft(['keys', 'show'], { home });
    expect(shown.exitCode).toBe(2);
    expect(shown.stderr).toContain('keys generate');
    expect(parseJson(await runStatecraft(['keys', 'show', '--json'], { home }))).toHaveProperty('refused');
  });

  it('STATECRAFT_SIGNING_KEY names the key instead; a file that is no P-256 private key is refused naming it', async () => {
    const home = await scratch.make('statecraft-keys-home');
    const files = await scratch.make('statecraft-keys-files');
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const named = join(files, 'operator.pem');
    await writeFile(named, pair.privateKey.export({ type: 'sec1', format: 'pem' }), { mode: 0o600 });
    const shown = parseJson<KeyDocument>(await runStatecraft(['keys', 'show', '--json'], { home, env: { STATECRAFT_SIGNING_KEY: named } }));
    expect(shown).toMatchObject({
      source: 'STATECRAFT_SIGNING_KEY',
      privateKeyPath: named,
      publicKeyPath: null,
      publicKey: pair.publicKey.export({ type: 'spki', format: 'pem' }),
    });
    const generated = parseJson<KeyDocument>(await runStatecraft(['keys', 'generate', '--json'], { home, env: { STATECRAFT_SIGNING_KEY: named } }));
    expect(generated.signingWith).toBe(named);

    const ed = join(files, 'ed25519.pem');
    await writeFile(ed, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const junk = join(files, 'junk.pem');
    await writeFile(junk, 'not a key\n');
    for (const [path, says] of [
      [ed, 'not an ECDSA P-256 key'],
      [junk, 'not a PEM private key'],
      [join(files, 'absent.pem'), 'cannot be read'],
    ] as const) {
      const refused = await runStatecraft(['keys', 'show'], { home, env: { STATECRAFT_SIGNING_KEY: path } });
      expect(refused.exitCode, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(path);
      expect(refused.stderr).toContain(says);
    }
  });

  it('a key named by a device or a huge file is refused at once (exit 2) naming it, never read whole: STATECRAFT_SIGNING_KEY and --trust alike', async () => {
    const home = await scratch.make('statecraft-keys-home');
    const huge = join(await scratch.make('statecraft-keys-huge'), 'huge.pem');
    await writeFile(huge, Buffer.alloc(8 * 1024 * 1024, 0x41));
    for (const path of ['/dev/zero', huge]) {
      // It read the whole of /dev/zero until a string could hold no more: seconds, and half a GB.
      const shown = await runStatecraft(['keys', 'show'], { home, env: { STATECRAFT_SIGNING_KEY: path }, timeoutMs: 15_000 });
      expect(shown.exitCode, shown.stderr).toBe(2);
      expect(shown.stderr).toContain(`${path}: the signing key cannot be read`);
      const trusted = await runStatecraft(['verify', join(home, 'no-bundle.tar'), '--trust', path], { home, timeoutMs: 15_000 });
      expect(trusted.exitCode, trusted.stderr).toBe(2);
      expect(trusted.stderr).toContain(`${path}: the trusted key cannot be read`);
    }
  });
});
