import { checkQualification, knownDigestOf, type AdapterIdentity, type KnownDigest, type ManifestToCheck } from '@statecraft/adapter';
import type { QualificationLabel } from '../posture.js';

/**
 * The qualification label of the adapter about to run (R3.2): an adapter with no matching
 * record runs, labelled `unqualified`; it is never refused for that. The manifest it is read with
 * is part of what is checked (R2.2, R3.1); with a provider, what is checked is the pair (R3.1). An unreadable record store labels, it does not refuse. The
 * provider's digest comes from the product home's digest cache and is returned, so the adapter
 * can be handed it instead of hashing the provider again (issue 10 item 7).
 */
export async function labelQualification(
  home: string,
  adapter: AdapterIdentity,
  manifest: ManifestToCheck,
  provider: string | undefined,
  digestCache: string,
): Promise<{ qualification: QualificationLabel; providerDigest?: KnownDigest }> {
  let providerDigest: KnownDigest | undefined;
  try {
    providerDigest = provider === undefined ? undefined : await knownDigestOf(provider, digestCache);
    const verdict = await checkQualification({
      home,
      adapter: { name: adapter.name, version: adapter.version, digest: adapter.digest },
      manifest,
      ...(providerDigest === undefined ? {} : { provider: { digest: `sha256:${providerDigest.sha256}` } }),
    });
    return { qualification: { verdict: verdict.verdict, reason: verdict.reason }, ...(providerDigest === undefined ? {} : { providerDigest }) };
  } catch (error) {
    return {
      qualification: { verdict: 'unqualified', reason: `the qualification records could not be read (${(error as Error).message})` },
      ...(providerDigest === undefined ? {} : { providerDigest }),
    };
  }
}
