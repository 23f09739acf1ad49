import { createPublicKey, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { delimiter } from 'node:path';
import { keyIdOf, requireP256, SigningKeyProblem } from './signing-key.js';

/** A public key the operator trusts: its file, the key and its id (the hint a bundle names it by). */
export interface TrustedKey {
  path: string;
  publicKey: KeyObject;
  keyId: string;
}

/**
 * The keys the operator trusts: each `--trust <file>` given, then each path of
 * `STATECRAFT_TRUSTED_KEYS` (a list separated like PATH). Each file holds a PEM public key
 * (ECDSA P-256, as `keys generate` prints it); one that does not is a problem naming it, never
 * dropped, since a trust list quietly shorter than asked would read a trusted signature as untrusted
 * or, worse, an empty list as no trust configured. None given: an empty list, trust not configured.
 */
export async function readTrustedKeys(flags: readonly string[], environment: Readonly<Record<string, string | undefined>>): Promise<TrustedKey[]> {
  const listed = (environment['STATECRAFT_TRUSTED_KEYS'] ?? '').split(delimiter).filter((path) => path !== '');
  const keys: TrustedKey[] = [];
  for (const path of [...flags, ...listed]) {
    const key = await readPublicKeyFile(path);
    if (!keys.some((known) => known.keyId === key.keyId)) keys.push(key);
  }
  return keys;
}

async function readPublicKeyFile(path: string): Promise<TrustedKey> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new SigningKeyProblem(path, `the trusted key cannot be read (${(error as Error).message})`, error);
  }
  let publicKey: KeyObject;
  try {
    publicKey = createPublicKey({ key: text, format: 'pem' });
  } catch (error) {
    throw new SigningKeyProblem(path, `not a PEM public key (${(error as Error).message})`, error);
  }
  requireP256(publicKey, path);
  return { path, publicKey, keyId: keyIdOf(publicKey) };
}
