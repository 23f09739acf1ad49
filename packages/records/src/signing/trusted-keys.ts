import type { KeyObject } from 'node:crypto';
import { delimiter } from 'node:path';
import { keyIdOf, readP256Key, SigningKeyProblem } from './signing-key.js';

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
 * The variable set but naming no file is a problem too: a missing CI secret arrives as an empty
 * variable, and read as no trust it would let an unsigned record qualify the adapter.
 */
export async function readTrustedKeys(flags: readonly string[], environment: Readonly<Record<string, string | undefined>>): Promise<TrustedKey[]> {
  const named = environment['STATECRAFT_TRUSTED_KEYS'];
  const listed = (named ?? '').split(delimiter).filter((path) => path !== '');
  if (named !== undefined && listed.length === 0)
    throw new SigningKeyProblem('STATECRAFT_TRUSTED_KEYS', 'set but names no key file, so no signature would be believed; name a public key file or unset it');
  const keys: TrustedKey[] = [];
  for (const path of [...flags, ...listed]) {
    const key = await readPublicKeyFile(path);
    if (!keys.some((known) => known.keyId === key.keyId)) keys.push(key);
  }
  return keys;
}

async function readPublicKeyFile(path: string): Promise<TrustedKey> {
  const publicKey = await readP256Key(path, 'public', 'the trusted key');
  return { path, publicKey, keyId: keyIdOf(publicKey) };
}
