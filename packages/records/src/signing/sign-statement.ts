import { sign } from 'node:crypto';
import type { SerializedBundle } from '@sigstore/bundle';
import { IN_TOTO_PAYLOAD_TYPE, type InTotoStatement } from './signed-statement.js';
import type { SigningKey } from './signing-key.js';

/**
 * Signs an in-toto statement with the key: a DSSE envelope carried in a Sigstore bundle v0.3 with
 * the key's id as its public-key hint, no certificate and no transparency log entry, built by
 * Sigstore's own bundle builder so any Sigstore verifier reads it. Nothing here touches the
 * network: the builder is given this key as its signer and no witness. Returns the bundle as JSON
 * (a plain object), ready to be written beside the record.
 */
export async function signStatement(key: SigningKey, statement: InTotoStatement): Promise<SerializedBundle> {
  // Loaded when something is signed, not when records are: most verbs never sign. The packages are
  // CommonJS: their exports are the default export both for node and in the CLI's bundle.
  const [{ DSSEBundleBuilder }, { bundleToJSON }] = await Promise.all([
    import('@sigstore/sign').then((m) => m.default),
    import('@sigstore/bundle').then((m) => m.default),
  ]);
  const signer = {
    sign: (data: Buffer) =>
      Promise.resolve({
        signature: sign('sha256', data, key.privateKey),
        key: { $case: 'publicKey' as const, publicKey: key.publicKeyPem, hint: key.keyId },
      }),
  };
  const bundle = await new DSSEBundleBuilder({ signer, witnesses: [] }).create({
    data: Buffer.from(JSON.stringify(statement), 'utf8'),
    type: IN_TOTO_PAYLOAD_TYPE,
  });
  return bundleToJSON(bundle);
}
