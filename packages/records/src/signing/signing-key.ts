import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { makeDirectories, readRegularFile } from '@statecraft/adapter';
import { join } from 'node:path';
import { productHomeLayout } from '../product-home.js';
import { writeFileDurably } from '../durable-write.js';

/**
 * A signing key: ECDSA on P-256 with SHA-256, the algorithm cosign makes by default and the one
 * every Sigstore verifier accepts for a public-key bundle (decision 0261).
 */
export interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** The public key as SPKI PEM: what an operator hands a verifier. */
  publicKeyPem: string;
  /** Lower-case hex SHA-256 of the public key's DER SubjectPublicKeyInfo; a bundle's key hint. */
  keyId: string;
  /** The private key's file. */
  path: string;
  source: 'STATECRAFT_SIGNING_KEY' | 'product-home';
}

/** A key file that cannot serve: missing, unreadable as a key, or not an ECDSA P-256 key. Names the file. */
export class SigningKeyProblem extends Error {
  readonly path: string;
  constructor(path: string, message: string, cause?: unknown) {
    super(`${path}: ${message}`, cause === undefined ? undefined : { cause });
    this.name = 'SigningKeyProblem';
    this.path = path;
  }
}

/** Where the product home keeps its key pair: under the home, which no boundary ever shows. */
export function signingKeyPaths(home: string): { directory: string; privateKey: string; publicKey: string } {
  const directory = join(productHomeLayout(home).home, 'keys');
  return { directory, privateKey: join(directory, 'signing-key.pem'), publicKey: join(directory, 'signing-key.pub') };
}

/** The key id of a public key: the SHA-256 of its DER SubjectPublicKeyInfo, lower-case hex. */
export function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

/** Refuses any key that is not ECDSA on P-256: the one kind the bundle's verifiers are asked to take. */
export function requireP256(key: KeyObject, path: string): void {
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    const kind =
      key.asymmetricKeyType === 'ec'
        ? `an EC key on ${key.asymmetricKeyDetails?.namedCurve ?? 'an unknown curve'}`
        : `a ${key.asymmetricKeyType ?? 'symmetric'} key`;
    throw new SigningKeyProblem(path, `${kind}, not an ECDSA P-256 key`);
  }
}

const KEY_FILE_MAX_BYTES = 64 * 1024;

/**
 * A PEM key file, read and parsed as a P-256 `private` or `public` key; each fault is a problem
 * naming the file: unreadable, not PEM, not that kind of key, another curve.
 */
export async function readP256Key(path: string, kind: 'private' | 'public', what: string): Promise<KeyObject> {
  let text: string;
  try {
    // A regular file, read to a bound: a P-256 key in PEM is a few hundred bytes, and a device or
    // a huge file named as one must cost neither a hang nor its size in memory.
    text = await readRegularFile(path, KEY_FILE_MAX_BYTES);
  } catch (error) {
    throw new SigningKeyProblem(path, `${what} cannot be read (${(error as Error).message})`, error);
  }
  let key: KeyObject;
  try {
    key = kind === 'private' ? createPrivateKey({ key: text, format: 'pem' }) : createPublicKey({ key: text, format: 'pem' });
  } catch (error) {
    throw new SigningKeyProblem(path, `not a PEM ${kind} key (${(error as Error).message})`, error);
  }
  requireP256(key, path);
  return key;
}

/**
 * The signing key, or undefined when there is none: `STATECRAFT_SIGNING_KEY` (a PEM private key
 * file) first, else the product home's own. A key named by the variable that cannot be read is a
 * problem, never silently no key: the operator asked for signatures.
 */
export async function readSigningKey(home: string, environment: Readonly<Record<string, string | undefined>>): Promise<SigningKey | undefined> {
  const named = environment['STATECRAFT_SIGNING_KEY'];
  if (named !== undefined && named !== '') return readPrivateKeyFile(named, 'STATECRAFT_SIGNING_KEY');
  const own = signingKeyPaths(home).privateKey;
  const found = await stat(own).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
    throw error;
  });
  if (found === undefined) return undefined;
  return readPrivateKeyFile(own, 'product-home');
}

async function readPrivateKeyFile(path: string, source: SigningKey['source']): Promise<SigningKey> {
  const privateKey = await readP256Key(path, 'private', 'the signing key');
  const publicKey = createPublicKey(privateKey);
  return {
    privateKey,
    publicKey,
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    keyId: keyIdOf(publicKey),
    path,
    source,
  };
}

/**
 * Makes the product home's key pair: the private key readable by its owner only (0600, in a 0700
 * directory), the public key beside it. An existing key is kept unless `replace` is given, since a
 * new key orphans every signature the old one made for whoever trusts only the old one.
 */
export async function generateSigningKey(home: string, options: { replace: boolean }): Promise<{ key: SigningKey; replaced: boolean } | { existing: string }> {
  const paths = signingKeyPaths(home);
  const present = await stat(paths.privateKey).then(
    () => true,
    () => false,
  );
  if (present && !options.replace) return { existing: paths.privateKey };
  // Not node's recursive mkdir: under /proc it retries for ever (make-directories.ts).
  makeDirectories(paths.directory, 0o700);
  const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const privatePem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const publicPem = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  // The private key's file is made at 0600 under a temporary name and renamed into place: it is
  // never readable by others, not even for a moment, and a crash leaves the old pair whole. The
  // public key is derived from the private one wherever it is read; its file is for the operator.
  await writeFileDurably(paths.privateKey, privatePem, { mode: 0o600 });
  await writeFileDurably(paths.publicKey, publicPem, { mode: 0o644 });
  const key = await readPrivateKeyFile(paths.privateKey, 'product-home');
  return { key, replaced: present };
}
