import type { CapabilityToken, EventDraft, ProviderIdentity } from '@statecraft/adapter';

/** The provider's identity when it could not be resolved: named, never guessed. */
export const UNRESOLVED_PROVIDER: ProviderIdentity = { name: 'codex', version: 'not-recorded', digest: 'not-recorded' };

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
