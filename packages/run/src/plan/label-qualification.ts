import { checkQualification, digestFile, type AdapterIdentity } from '@statecraft/adapter';
import type { QualificationLabel } from '../posture.js';

/**
 * The qualification label of the adapter about to run (R3.2): an adapter with no matching
 * record runs, labelled `unqualified`; it is never refused for that. With `--provider`, what is
 * checked is the pair (R3.1). An unreadable record store labels, it does not refuse.
 */
export async function labelQualification(home: string, adapter: AdapterIdentity, provider: string | undefined): Promise<QualificationLabel> {
  try {
    const providerDigest = provider === undefined ? undefined : await digestFile(provider);
    const verdict = await checkQualification({
      home,
      adapter: { name: adapter.name, version: adapter.version, digest: adapter.digest },
      ...(providerDigest === undefined ? {} : { provider: { digest: providerDigest } }),
    });
    return { verdict: verdict.verdict, reason: verdict.reason };
  } catch (error) {
    return { verdict: 'unqualified', reason: `the qualification records could not be read (${(error as Error).message})` };
  }
}
