import type { AdapterIdentity } from '@statecraft/adapter';
import type { QualificationLabel } from '../posture.js';

/**
 * The qualification label of the adapter about to run (R3.2): an adapter with no matching
 * record runs, labelled `unqualified`; it is never refused for that.
 */
export function labelQualification(_home: string, adapter: AdapterIdentity): Promise<QualificationLabel> {
  return Promise.resolve({
    verdict: 'unqualified',
    reason: `no qualification record was consulted for ${adapter.name} ${adapter.version} (${adapter.digest})`,
  });
}
