import { createPublicKey } from 'node:crypto';
import { keyIdOf, requireP256 } from '../signing/signing-key.js';
import { signedBundlePath } from '../signing/signed-bundle-path.js';
import type { TrustedKey } from '../signing/trusted-keys.js';
import { verifySignedBundle } from '../signing/verify-signed-bundle.js';
import { MANIFEST_PATH, MANIFEST_SIGNATURE_PATH } from './bundle-manifest.js';
import type { BundleReading } from './read-bundle.js';
import { FindingList, type BundleFinding, type BundleHold } from './verify-bundle.js';
import { parseBoundedJson } from '../bounded-json.js';

type Read = Extract<BundleReading, { kind: 'read' }>;

/** The roles that are signed records, and what each one's signature is read as. */
const SIGNED = { receipt: 'receipt-signature', qualification: 'qualification-signature' } as const;

/**
 * Each receipt's and qualification record's signature, checked with the signing module's verifier
 * (decision 0284). With trusted keys, every one must be signed by one of them: unsigned, another
 * key's or an invalid signature is a finding, and a qualification record so signed is not believed.
 * Without, each is checked against the public keys the bundle carries: a signature that does not
 * verify is a finding; one that does says only that the bytes are what that key signed.
 */
export async function verifyBundleSignatures(bundle: Read, trusted: readonly TrustedKey[]): Promise<{ holds: BundleHold[]; findings: BundleFinding[] }> {
  const findings = new FindingList();
  const holds: BundleHold[] = [];
  const carried = carriedKeys(bundle, findings);
  const keys = trusted.length > 0 ? trusted : carried;
  const signedPaths = new Set<string>();
  let verified = 0;
  let unsigned = 0;
  for (const file of bundle.manifest.files) {
    if (file.role !== 'receipt' && file.role !== 'qualification') continue;
    const content = bundle.files.get(file.path)?.content;
    if (content === undefined) continue;
    let record: unknown;
    try {
      record = parseBoundedJson(content.toString('utf8'));
    } catch {
      continue; // the receipt's or the qualification's own check names it
    }
    const signaturePath = signedBundlePath(file.path);
    signedPaths.add(signaturePath);
    const listed = bundle.manifest.files.find((entry) => entry.path === signaturePath);
    if (listed !== undefined && listed.role !== SIGNED[file.role])
      findings.add({ check: 'signatures', file: signaturePath, field: 'role', message: `is listed as ${listed.role}, not ${SIGNED[file.role]}` });
    const signature = bundle.files.get(signaturePath)?.content?.toString('utf8');
    const check = await verifySignedBundle(signature, { record }, keys);
    const what = file.role === 'qualification' ? 'the qualification record' : 'the receipt';
    if (check.status === 'verified') verified += 1;
    else if (check.status === 'unsigned') {
      unsigned += 1;
      if (trusted.length > 0)
        findings.add({
          check: 'signatures',
          file: file.path,
          message: `is unsigned: with trusted keys given, ${what} is not believed${file.role === 'qualification' ? ' (the adapter reads unqualified)' : ''}`,
        });
    } else if (check.status === 'untrusted')
      findings.add({
        check: 'signatures',
        file: signaturePath,
        field: 'verificationMaterial.publicKey.hint',
        message: `signed by key ${check.keyId.slice(0, 16)}…, which is ${trusted.length > 0 ? 'not a trusted key' : 'not among the keys the bundle carries'}`,
      });
    else findings.add({ check: 'signatures', file: signaturePath, message: `does not verify: ${check.reason}` });
  }
  const manifestCheck = await verifySignedBundle(bundle.manifestSignature?.toString('utf8'), { record: bundle.manifest }, keys);
  if (manifestCheck.status === 'verified') verified += 1;
  else if (manifestCheck.status === 'unsigned') {
    if (trusted.length > 0)
      findings.add({
        check: 'signatures',
        file: MANIFEST_PATH,
        message: 'is unsigned: with trusted keys given, nothing vouches for the bundle as a whole (export it from a home with a signing key)',
      });
  } else if (manifestCheck.status === 'untrusted')
    findings.add({
      check: 'signatures',
      file: MANIFEST_SIGNATURE_PATH,
      field: 'verificationMaterial.publicKey.hint',
      message: `signed by key ${manifestCheck.keyId.slice(0, 16)}…, which is ${trusted.length > 0 ? 'not a trusted key' : 'not among the keys the bundle carries'}`,
    });
  else findings.add({ check: 'signatures', file: MANIFEST_SIGNATURE_PATH, message: `does not verify: ${manifestCheck.reason}` });
  for (const file of bundle.manifest.files)
    if ((file.role === 'receipt-signature' || file.role === 'qualification-signature') && !signedPaths.has(file.path))
      findings.add({ check: 'signatures', file: file.path, message: 'signs no record the bundle carries' });
  if (findings.count === 0 && verified > 0)
    holds.push({
      check: 'signatures',
      message:
        trusted.length > 0
          ? `${verified} signature${verified === 1 ? '' : 's'} verify against a trusted key`
          : `${verified} signature${verified === 1 ? '' : 's'} verify against the keys the bundle carries (none trusted: give --trust)`,
    });
  if (findings.count === 0 && unsigned > 0 && trusted.length === 0)
    holds.push({ check: 'signatures', message: `${unsigned} record${unsigned === 1 ? ' is' : 's are'} unsigned` });
  return { holds, findings: findings.list() };
}

/** The public keys the bundle carries (`keys/<id>.pub`): each a PEM ECDSA P-256 key named by its id. */
function carriedKeys(bundle: Read, findings: FindingList): TrustedKey[] {
  const keys: TrustedKey[] = [];
  for (const file of bundle.manifest.files.filter((entry) => entry.role === 'public-key')) {
    const content = bundle.files.get(file.path)?.content;
    if (content === undefined) continue;
    try {
      const publicKey = createPublicKey({ key: content.toString('utf8'), format: 'pem' });
      requireP256(publicKey, file.path);
      const keyId = keyIdOf(publicKey);
      if (file.path !== `keys/${keyId}.pub`)
        findings.add({ check: 'signatures', file: file.path, message: `holds key ${keyId.slice(0, 16)}…, not the one its name says` });
      keys.push({ path: file.path, publicKey, keyId });
    } catch (error) {
      findings.add({ check: 'signatures', file: file.path, message: `is not an ECDSA P-256 public key (${(error as Error).message})` });
    }
  }
  return keys;
}
