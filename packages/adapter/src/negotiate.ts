import type { CapabilityToken } from './capabilities.js';
import type { Manifest } from './protocol/manifest.js';
import type { InitEvent } from './protocol/events.js';

export type Negotiation =
  | {
      kind: 'refused';
      /** Required tokens the manifest lacks, in request order. */
      missing: CapabilityToken[];
      adapter: { name: string; version: string };
      /** Names each token and the adapter version; says nothing was spawned (R2.3). */
      message: string;
    }
  | {
      kind: 'negotiated';
      required: CapabilityToken[];
      preferred: CapabilityToken[];
      /** Preferred tokens the manifest lacks: the attempt runs, and this is recorded (R2.3). */
      degraded: CapabilityToken[];
      /** `structured-refusals` preferred and absent: refusals cannot be trusted as complete. */
      unverifiableRefusalAccount: boolean;
    };

/** Compares a request's required/preferred tokens with the manifest, before anything is spawned. */
export function negotiateCapabilities(manifest: Manifest, required: readonly CapabilityToken[], preferred: readonly CapabilityToken[]): Negotiation {
  const declared = new Set(manifest.capabilities);
  const missing = required.filter((token) => !declared.has(token));
  if (missing.length > 0) {
    return {
      kind: 'refused',
      missing,
      adapter: { name: manifest.name, version: manifest.version },
      message:
        `adapter ${manifest.name} ${manifest.version} does not declare the required capabilit` +
        `${missing.length === 1 ? 'y' : 'ies'} ${missing.join(', ')}; refused before spawn, no process created`,
    };
  }
  const degraded = preferred.filter((token) => !declared.has(token));
  return {
    kind: 'negotiated',
    required: [...required],
    preferred: [...preferred],
    degraded,
    unverifiableRefusalAccount: degraded.includes('structured-refusals'),
  };
}

/**
 * Tokens the manifest declares that the init event says were not applied (R2.4). The applied
 * set is recorded as observed; a non-empty discrepancy fails qualification.
 */
export function findUnappliedCapabilities(manifest: Manifest, init: InitEvent): CapabilityToken[] {
  const applied = new Set(init.applied.capabilities);
  return manifest.capabilities.filter((token) => !applied.has(token));
}
