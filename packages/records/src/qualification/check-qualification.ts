import type { z } from 'zod';
import type { QualificationVerdictSchema } from '@statecraft/adapter';
import { PROTOCOL_VERSION } from '@statecraft/adapter';
import type { AdapterIdentity } from '@statecraft/adapter';
import { SUITE_VERSION } from '@statecraft/adapter';
import type { QualificationRecord } from './qualification-record.js';
import { listQualificationRecords, thisPlatform, type StoredRecord } from './qualification-store.js';
import { readSignedBundle } from '../signing/read-signed-bundle.js';
import type { TrustedKey } from '../signing/trusted-keys.js';
import { verifySignedBundle } from '../signing/verify-signed-bundle.js';

/**
 * A qualification record's signature as checked: by a trusted key (`verified`), none (`unsigned`),
 * by a key not trusted (`untrusted`: not checked, no key being trusted to check it with), or one
 * that does not hold (`invalid`, the reason naming the field).
 */
export type RecordSignature =
  | { status: 'verified'; keyId: string }
  | { status: 'unsigned' }
  | { status: 'untrusted'; keyId: string }
  | { status: 'invalid'; reason: string; keyId?: string };

/**
 * The provider binary of the pair, by its identity (provider-identity.ts): its digest decides;
 * name and version are compared when known (learning them would mean running the binary, and
 * checking executes nothing). A provider that cannot be identified is no recorded pair's.
 */
export type ProviderToCheck = { kind: 'identified'; digest: string; name?: string; version?: string } | { kind: 'unidentifiable'; message: string };

/** The manifest the adapter is read with: where it was read, and its digest (manifestDigest). */
export interface ManifestToCheck {
  path: string;
  digest: string;
}

export interface QualificationVerdict {
  verdict: z.infer<typeof QualificationVerdictSchema>;
  /** Why, in a sentence naming what matched or what differed. */
  reason: string;
  /** The record that qualifies this binary (or pair). */
  record?: StoredRecord;
  /** The signature of the record that matched the binary (or pair), when one did. */
  signature?: RecordSignature;
}

/**
 * Says whether this exact binary, read with this manifest (and provider binary, for an adapter
 * that fronts one), has a recorded pass (R3.1, R3.3). Nothing transfers: not a record of another
 * version, not one with the same version string and another digest, not one made with another
 * manifest (it decides the tokens, the environment passed and the managed paths, R2.2), not a
 * sibling adapter's, not one made with another provider binary — a provider upgrade invalidates a
 * byte-identical adapter (R3.1). An adapter with no record still runs, labelled `unqualified`
 * (R3.2); this only says which.
 */
export async function checkQualification(input: {
  home: string;
  adapter: AdapterIdentity;
  manifest: ManifestToCheck;
  provider?: ProviderToCheck;
  /**
   * The keys the operator trusts. Where there are any, only a record signed by one of them
   * qualifies: an unsigned record, or one signed by another key or over other bytes, does not.
   * None: every matching record qualifies, as before signatures, and the reason says whether it is signed.
   */
  trustedKeys?: readonly TrustedKey[];
}): Promise<QualificationVerdict> {
  const { records } = await listQualificationRecords(input.home);
  const { adapter } = input;
  const named = records.filter((entry) => entry.record.adapter.name === adapter.name);
  if (named.length === 0) {
    return unqualified(`no qualification record for an adapter named ${adapter.name} (a sibling adapter's pass does not transfer)`);
  }
  const sameVersion = named.filter((entry) => entry.record.adapter.version === adapter.version);
  if (sameVersion.length === 0) {
    const versions = [...new Set(named.map((entry) => entry.record.adapter.version))].join(', ');
    return unqualified(`${adapter.name} is qualified at version ${versions}, not ${adapter.version} (a record for another version does not transfer)`);
  }
  const sameBinary = sameVersion.filter((entry) => entry.record.adapter.digest === adapter.digest);
  if (sameBinary.length === 0) {
    const digests = [...new Set(sameVersion.map((entry) => entry.record.adapter.digest))].join(', ');
    return unqualified(
      `${adapter.name} ${adapter.version} is qualified with digest ${digests}, but this binary's digest is ${adapter.digest}: ` +
        'the same version string with different content is not the qualified binary',
    );
  }
  const current = sameBinary.filter((entry) => fitsThisSuite(entry.record));
  if (current.length === 0) {
    const suites = [...new Set(sameBinary.map((entry) => `${entry.record.suiteVersion} (protocol ${entry.record.protocol})`))].join(', ');
    return unqualified(`this binary passed ${suites}; the current suite is ${SUITE_VERSION} (protocol ${PROTOCOL_VERSION}), which it has not passed`);
  }
  const platform = thisPlatform();
  const here = current.filter((entry) => entry.record.platform.os === platform.os && entry.record.platform.arch === platform.arch);
  if (here.length === 0) {
    const elsewhere = [...new Set(current.map((entry) => `${entry.record.platform.os}/${entry.record.platform.arch}`))].join(', ');
    return unqualified(`this binary is qualified on ${elsewhere}, not on ${platform.os}/${platform.arch}`);
  }
  const sameManifest = here.filter((entry) => entry.record.adapter.manifestDigest === input.manifest.digest);
  if (sameManifest.length === 0) return unqualified(manifestMismatch(here, input.manifest));
  const paired = sameManifest.filter((entry) => sameProvider(entry.record, input.provider));
  const newest = paired.at(-1);
  if (newest === undefined) return unqualified(providerMismatch(sameManifest, input.provider));
  const qualifiedBy = (chosen: StoredRecord, signature: RecordSignature): QualificationVerdict => ({
    verdict: 'qualified',
    reason:
      `${adapter.name} ${adapter.version} (${adapter.digest}) with the manifest ${input.manifest.path} (${input.manifest.digest})` +
      (input.provider?.kind === 'identified' ? ` with ${describeProvider(input.provider)}` : '') +
      ` passed ${chosen.record.suiteVersion} on ${chosen.record.date}: record ${chosen.id}; ${describeSignature(signature, false)}`,
    record: chosen,
    signature,
  });
  const trusted = input.trustedKeys ?? [];
  if (trusted.length === 0) return qualifiedBy(newest, await signatureOf(newest, []));
  // Newest first: the first record a trusted key signed qualifies; else the newest says why not.
  let refused: { entry: StoredRecord; signature: RecordSignature } | undefined;
  for (const entry of [...paired].reverse()) {
    const signature = await signatureOf(entry, trusted);
    if (signature.status === 'verified') return qualifiedBy(entry, signature);
    refused ??= { entry, signature };
  }
  const { entry, signature } = refused ?? { entry: newest, signature: { status: 'unsigned' } };
  return {
    verdict: 'unqualified',
    reason:
      `record ${entry.id} matches this binary, but ${describeSignature(signature, true)}: ` +
      `with trusted keys configured (${trusted.map((key) => key.keyId.slice(0, 16)).join(', ')}), only a record signed by one of them qualifies`,
    signature,
  };
}

/** A record's signature, checked against the trusted keys (none: only whether it is signed, and by which key). */
async function signatureOf(entry: StoredRecord, trusted: readonly TrustedKey[]): Promise<RecordSignature> {
  let text: string | undefined;
  try {
    text = await readSignedBundle(entry.path);
  } catch (error) {
    return { status: 'invalid', reason: `its signature cannot be read (${(error as Error).message})` };
  }
  const checked = await verifySignedBundle(text, { record: entry.json }, trusted);
  if (checked.status === 'verified' || checked.status === 'untrusted') return { status: checked.status, keyId: checked.keyId };
  return checked;
}

/** The signature in words, for a verdict's reason. */
function describeSignature(signature: RecordSignature, trustConfigured: boolean): string {
  switch (signature.status) {
    case 'verified':
      return `the record is signed by trusted key ${signature.keyId}`;
    case 'unsigned':
      return 'the record is unsigned';
    case 'untrusted':
      return trustConfigured
        ? `the record is signed by key ${signature.keyId}, which is not trusted`
        : `the record is signed by key ${signature.keyId} (not verified: no key is trusted; --trust names one)`;
    case 'invalid':
      return `the record's signature does not hold (${signature.reason})`;
  }
}

function unqualified(reason: string): QualificationVerdict {
  return { verdict: 'unqualified', reason };
}

/** A record counts only for the suite and protocol in force, and only if every case passed. */
function fitsThisSuite(record: QualificationRecord): boolean {
  return record.suiteVersion === SUITE_VERSION && record.protocol === PROTOCOL_VERSION && record.cases.every((entry) => entry.status === 'pass');
}

/** The pair (R3.1): the record's provider must be this provider, byte for byte (its identity). */
function sameProvider(record: QualificationRecord, provider: ProviderToCheck | undefined): boolean {
  if (provider === undefined) return record.provider === 'none';
  if (record.provider === 'none' || provider.kind === 'unidentifiable') return false;
  return (
    (provider.name === undefined || record.provider.name === provider.name) &&
    (provider.version === undefined || record.provider.version === provider.version) &&
    record.provider.digest !== 'not-recorded' &&
    record.provider.digest === provider.digest
  );
}

function describeProvider(provider: Extract<ProviderToCheck, { kind: 'identified' }>): string {
  return [provider.name, provider.version, `(${provider.digest})`].filter((part) => part !== undefined).join(' ');
}

function providerMismatch(records: readonly StoredRecord[], provider: ProviderToCheck | undefined): string {
  const recorded = [
    ...new Set(
      records.map((entry) =>
        entry.record.provider === 'none' ? 'no provider' : `${entry.record.provider.name} ${entry.record.provider.version} (${entry.record.provider.digest})`,
      ),
    ),
  ].join(', ');
  if (provider?.kind === 'unidentifiable')
    return `${provider.message}; this adapter binary is qualified with ${recorded}, and no record vouches for a provider that cannot be identified`;
  const asked = provider === undefined ? 'no provider' : `provider ${describeProvider(provider)}`;
  return `this adapter binary is qualified with ${recorded}, not with ${asked}: what is qualified is the pair, and a provider upgrade invalidates it`;
}

/**
 * Why no record of this binary binds this manifest. A record made before manifests were bound
 * names none, so it cannot say the manifest read now is the one measured: it does not qualify,
 * and the honest answer is to qualify again.
 */
function manifestMismatch(records: readonly StoredRecord[], manifest: ManifestToCheck): string {
  const unbound = records.filter((entry) => entry.record.adapter.manifestDigest === 'not-recorded').map((entry) => entry.id);
  const bound = [...new Set(records.map((entry) => entry.record.adapter.manifestDigest).filter((digest) => digest !== 'not-recorded'))];
  const before = `qualified before manifests were bound (record ${unbound.join(', ')}): no record says which manifest it was measured with; qualify again`;
  if (bound.length === 0) return `this adapter binary was ${before}, so the manifest ${manifest.path} (${manifest.digest}) is not vouched for`;
  return (
    `this adapter binary is qualified with the manifest digest ${bound.join(', ')}, not with the manifest ${manifest.path} (${manifest.digest}): ` +
    'the manifest decides the capability tokens, the environment passed and the writable managed paths, so another manifest is not the qualified adapter' +
    (unbound.length === 0 ? '' : `; it was also ${before}`)
  );
}
