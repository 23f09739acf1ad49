import { createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { keyIdOf, readSigningKey, signingKeyPaths } from '../signing/signing-key.js';
import type { BundleSource } from './collect-bundle.js';

/**
 * The public keys of the signatures a bundle carries, as `keys/<key id>.pub`: the product home's
 * own key and the one `STATECRAFT_SIGNING_KEY` names, whichever signed something exported. A
 * signature by a key this machine does not hold goes without it; `verify --trust` needs none of these.
 */
export async function signingKeysUsed(
  home: string,
  environment: Readonly<Record<string, string | undefined>>,
  sources: readonly BundleSource[],
): Promise<BundleSource[]> {
  const hints = new Set(sources.filter((source) => source.role.endsWith('-signature')).flatMap((source) => hintOf(source)));
  if (hints.size === 0) return [];
  const pems = new Map<string, string>();
  const own = ownPublicKey(signingKeyPaths(home).publicKey);
  if (own !== undefined) pems.set(own.keyId, own.pem);
  const named = await readSigningKey(home, environment).catch(() => undefined);
  if (named !== undefined) pems.set(named.keyId, named.publicKeyPem);
  return [...pems]
    .filter(([keyId]) => hints.has(keyId))
    .map(([keyId, pem]) => ({ path: `keys/${keyId}.pub`, role: 'public-key' as const, from: { kind: 'bytes' as const, bytes: Buffer.from(pem) } }));
}

function hintOf(source: BundleSource): string[] {
  try {
    const text = source.from.kind === 'bytes' ? source.from.bytes.toString('utf8') : readFileSync(source.from.path, 'utf8');
    const hint = (JSON.parse(text) as { verificationMaterial?: { publicKey?: { hint?: unknown } } }).verificationMaterial?.publicKey?.hint;
    return typeof hint === 'string' ? [hint] : [];
  } catch {
    return [];
  }
}

function ownPublicKey(path: string): { keyId: string; pem: string } | undefined {
  try {
    const pem = readFileSync(path, 'utf8');
    return { keyId: keyIdOf(createPublicKey({ key: pem, format: 'pem' })), pem };
  } catch {
    return undefined;
  }
}
