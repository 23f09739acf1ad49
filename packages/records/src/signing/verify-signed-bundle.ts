import { createHash } from 'node:crypto';
import { IN_TOTO_PAYLOAD_TYPE, IN_TOTO_STATEMENT_TYPE, type InTotoStatement } from './signed-statement.js';
import type { TrustedKey } from './trusted-keys.js';
import { parseBoundedJson } from '../bounded-json.js';

/**
 * What a signature is checked against: the record as its file holds it (JSON.parse of its bytes),
 * which must equal the statement's predicate, or the SHA-256 (hex) of the envelope's payload.
 */
export type SignedContent = { record: unknown } | { payloadSha256: string };

/**
 * A record's signature, checked: `verified` by a trusted key; `unsigned` (no bundle); `untrusted`
 * (a well-formed bundle over this record whose key is none of the trusted ones, so its signature
 * was not checked); `invalid` (the reason names the bundle's field at fault).
 */
export type SignatureCheck =
  | { status: 'verified'; keyId: string; statement: InTotoStatement }
  | { status: 'unsigned' }
  | { status: 'untrusted'; keyId: string; statement: InTotoStatement }
  | { status: 'invalid'; reason: string; keyId?: string };

const BUNDLE_V03 = 'application/vnd.dev.sigstore.bundle.v0.3+json';

/**
 * Checks a record's Sigstore bundle (parsed, or its text; undefined when the record has none) with Sigstore's own
 * verifier, offline: the trust material is the trusted public keys alone (no certificate
 * authority, no transparency log, no timestamp authority, so none is asked for). The bundle's
 * shape, its statement and predicate are checked before its key, so a bundle over other bytes
 * reads `invalid` whoever signed it.
 */
export async function verifySignedBundle(bundleJson: unknown, expected: SignedContent, trustedKeys: readonly TrustedKey[]): Promise<SignatureCheck> {
  if (bundleJson === undefined) return { status: 'unsigned' };
  if (typeof bundleJson === 'string') {
    try {
      bundleJson = parseBoundedJson(bundleJson);
    } catch {
      return { status: 'invalid', reason: 'the bundle is not JSON' };
    }
  }
  // CommonJS packages: their exports are the default export both for node and in the CLI's bundle.
  const [{ bundleFromJSON }, { Verifier, toSignedEntity, toTrustMaterial }] = await Promise.all([
    import('@sigstore/bundle').then((m) => m.default),
    import('@sigstore/verify').then((m) => m.default),
  ]);
  if (typeof bundleJson !== 'object' || bundleJson === null || (bundleJson as { mediaType?: unknown }).mediaType !== BUNDLE_V03) {
    return { status: 'invalid', reason: `mediaType: not ${BUNDLE_V03}` };
  }
  let bundle: ReturnType<typeof bundleFromJSON>;
  try {
    bundle = bundleFromJSON(bundleJson);
  } catch (error) {
    return { status: 'invalid', reason: `not a Sigstore bundle (${(error as Error).message})` };
  }
  if (bundle.content.$case !== 'dsseEnvelope') return { status: 'invalid', reason: 'dsseEnvelope: absent (a message signature, not a signed statement)' };
  const envelope = bundle.content.dsseEnvelope;
  if (envelope.payloadType !== IN_TOTO_PAYLOAD_TYPE)
    return { status: 'invalid', reason: `dsseEnvelope.payloadType: ${JSON.stringify(envelope.payloadType)}, not ${IN_TOTO_PAYLOAD_TYPE}` };
  const material = bundle.verificationMaterial.content;
  if (material.$case !== 'publicKey') return { status: 'invalid', reason: 'verificationMaterial.publicKey: absent (a certificate, not a public key hint)' };
  const keyId = material.publicKey.hint;
  if (keyId === '') return { status: 'invalid', reason: 'verificationMaterial.publicKey.hint: empty' };
  const statement = statementOf(envelope.payload);
  if (typeof statement === 'string') return { status: 'invalid', reason: statement, keyId };
  const mismatch = contentMismatch(envelope.payload, statement, expected);
  if (mismatch !== undefined) return { status: 'invalid', reason: mismatch, keyId };
  const trusted = trustedKeys.find((key) => key.keyId === keyId);
  if (trusted === undefined) return { status: 'untrusted', keyId, statement };
  const emptyRoot = {
    mediaType: 'application/vnd.dev.sigstore.trustedroot+json;version=0.1',
    tlogs: [],
    certificateAuthorities: [],
    ctlogs: [],
    timestampAuthorities: [],
  };
  const trust = toTrustMaterial(emptyRoot, (hint: string) => {
    if (hint !== trusted.keyId) throw new Error(`no trusted key ${hint}`);
    return { publicKey: trusted.publicKey, validFor: () => true };
  });
  try {
    new Verifier(trust, { tlogThreshold: 0, ctlogThreshold: 0, timestampThreshold: 0 }).verify(toSignedEntity(bundle));
  } catch (error) {
    return { status: 'invalid', reason: `dsseEnvelope.signatures: does not verify with trusted key ${keyId} (${(error as Error).message})`, keyId };
  }
  return { status: 'verified', keyId, statement };
}

function statementOf(payload: Buffer): InTotoStatement | string {
  let parsed: unknown;
  try {
    parsed = parseBoundedJson(payload.toString('utf8'));
  } catch {
    return 'dsseEnvelope.payload: not JSON';
  }
  if (typeof parsed !== 'object' || parsed === null) return 'dsseEnvelope.payload: not an in-toto statement';
  const statement = parsed as Partial<InTotoStatement>;
  if (statement._type !== IN_TOTO_STATEMENT_TYPE) return `dsseEnvelope.payload._type: not ${IN_TOTO_STATEMENT_TYPE}`;
  if (!Array.isArray(statement.subject) || statement.subject.length === 0) return 'dsseEnvelope.payload.subject: absent or empty';
  if (typeof statement.predicateType !== 'string') return 'dsseEnvelope.payload.predicateType: absent';
  return statement as InTotoStatement;
}

function contentMismatch(payload: Buffer, statement: InTotoStatement, expected: SignedContent): string | undefined {
  if ('payloadSha256' in expected) {
    const digest = createHash('sha256').update(payload).digest('hex');
    return digest === expected.payloadSha256 ? undefined : `dsseEnvelope.payload: sha256 ${digest}, not ${expected.payloadSha256}`;
  }
  let same: boolean;
  try {
    same = canonicalJson(statement.predicate) === canonicalJson(expected.record);
  } catch {
    // A value handed over already parsed, and nested past what the comparison's recursion takes.
    return 'dsseEnvelope.payload.predicate: cannot be compared with the record it sits beside (nested too deep)';
  }
  return same ? undefined : 'dsseEnvelope.payload.predicate: differs from the record it sits beside';
}

/** JSON with every object's keys sorted: two readings of one record compare equal whatever their key order. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}
