import type { CapabilityToken } from '../capabilities.js';
import type { ProviderIdentity } from '../protocol/events.js';
import type { EventDraft } from './event-draft.js';

/** The provider's identity when it could not be resolved: named, never guessed. */
export function unresolvedProvider(name: string): ProviderIdentity {
  return { name, version: 'not-recorded', digest: 'not-recorded' };
}

/**
 * When the adapter cannot start the provider it still speaks the protocol: an init that says
 * nothing was applied, then a terminal `error` naming why (the supervisor reads `interrupted`).
 */
export function failureBeforeProvider(
  adapter: { name: string; version: string },
  provider: ProviderIdentity,
  requested: CapabilityToken[],
  code: string,
  message: string,
): EventDraft[] {
  return [
    {
      type: 'init',
      adapter,
      provider,
      requested: { capabilities: requested },
      applied: { capabilities: [], tools: 'not-recorded', allowlist: 'not-recorded' },
      detail: { startedProvider: false },
    },
    { type: 'error', code, message },
  ];
}
