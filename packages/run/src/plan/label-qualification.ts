import { checkQualification, type ManifestToCheck, type TrustedKey } from '@statecraft/records';
import { digestFileCached, knownDigestOf } from '@statecraft/records';
import { identifyProvider, type AdapterIdentity, type KnownDigest, type ProviderIdentityFile } from '@statecraft/adapter';
import type { QualificationLabel } from '@statecraft/records';

export interface LabelQualificationInput {
  home: string;
  adapter: AdapterIdentity;
  /** The manifest the adapter is read with: part of what is qualified (R2.2, R3.1). */
  manifest: ManifestToCheck;
  /** The manifest's `providerIdentityFiles`: what the provider's identity binds besides its executable. */
  identityFiles: readonly ProviderIdentityFile[] | undefined;
  /** The provider executable of the pair, if the adapter fronts one. */
  provider: string | undefined;
  /** The product home's digest cache. */
  digestCache: string;
  /** The keys the operator trusts: where any is given, only a record one of them signed qualifies. */
  trustedKeys: readonly TrustedKey[];
}

/**
 * The qualification label of the adapter about to run (R3.2): an adapter with no matching
 * record runs, labelled `unqualified`; it is never refused for that. The manifest it is read with
 * is part of what is checked (R2.2, R3.1); with a provider, what is checked is the pair, by the
 * provider's identity — its executable and the identity files the manifest declares (R3.1); one
 * that cannot be identified labels `unqualified`, naming why. An unreadable record store labels,
 * it does not refuse. Every digest comes from the product home's digest cache, and the
 * executable's is returned, so the adapter can be handed it instead of hashing the provider again.
 */
export async function labelQualification(input: LabelQualificationInput): Promise<{ qualification: QualificationLabel; providerDigest?: KnownDigest }> {
  let providerDigest: KnownDigest | undefined;
  try {
    providerDigest = input.provider === undefined ? undefined : await knownDigestOf(input.provider, input.digestCache);
    const identity =
      input.provider === undefined || providerDigest === undefined
        ? undefined
        : await identifyProvider({
            executable: input.provider,
            executableDigest: `sha256:${providerDigest.sha256}`,
            declared: input.identityFiles,
            digestOf: (path) => digestFileCached(path, input.digestCache),
          });
    const verdict = await checkQualification({
      home: input.home,
      adapter: { name: input.adapter.name, version: input.adapter.version, digest: input.adapter.digest },
      manifest: input.manifest,
      ...(identity === undefined ? {} : { provider: identity }),
      trustedKeys: input.trustedKeys,
    });
    const record = verdict.verdict === 'qualified' && verdict.record !== undefined ? { record: verdict.record.id } : {};
    return { qualification: { verdict: verdict.verdict, reason: verdict.reason, ...record }, ...(providerDigest === undefined ? {} : { providerDigest }) };
  } catch (error) {
    return {
      qualification: { verdict: 'unqualified', reason: `the qualification records could not be read (${(error as Error).message})` },
      ...(providerDigest === undefined ? {} : { providerDigest }),
    };
  }
}
