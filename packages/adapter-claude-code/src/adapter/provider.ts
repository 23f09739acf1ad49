import { resolveProvider } from '@statecraft/adapter';
import type { KnownDigest, ProviderCommand, ProviderResolution } from '@statecraft/adapter';

export type { ProviderResolution } from '@statecraft/adapter';

/**
 * Claude states its version in its own stream (`system/init`'s `claude_code_version`), and the
 * init event carries it from there (R10.2): `claude --version` is not run, which would be a second
 * start of the provider on every attempt (decision 0011).
 */
export const CLAUDE_COMMAND: ProviderCommand = { command: 'claude' };

/**
 * The provider binary: the one the operator named, else `claude` on the constructed PATH,
 * resolved by the seam's kit with its version and digest (R10.7).
 */
export function resolveClaude(named: string | null, environment: NodeJS.ProcessEnv, known: readonly KnownDigest[] = []): Promise<ProviderResolution> {
  return resolveProvider(CLAUDE_COMMAND, named, environment, known);
}
