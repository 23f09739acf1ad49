import { resolveProvider } from '@statecraft/adapter';
import type { KnownDigest, ProviderCommand, ProviderResolution } from '@statecraft/adapter';

export type { ProviderResolution } from '@statecraft/adapter';

/** `codex --version` answers `codex-cli 0.171.0`; the last word is the version. */
export const CODEX_COMMAND: ProviderCommand = {
  command: 'codex',
  versionFrom(stdout) {
    const words = stdout.trim().split(/\s+/);
    return words[0] === 'codex-cli' ? words.at(-1) : undefined;
  },
};

/**
 * The provider binary: the one the operator named, else `codex` on the constructed PATH,
 * resolved by the seam's kit with its version and digest (R10.7).
 */
export function resolveCodex(named: string | null, environment: NodeJS.ProcessEnv, known: readonly KnownDigest[] = []): Promise<ProviderResolution> {
  return resolveProvider(CODEX_COMMAND, named, environment, known);
}
