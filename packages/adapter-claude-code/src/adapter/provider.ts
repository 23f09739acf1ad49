import { resolveProvider } from '@statecraft/adapter';
import type { KnownDigest, ProviderCommand, ProviderResolution } from '@statecraft/adapter';

export type { ProviderResolution } from '@statecraft/adapter';

/** `claude --version` answers `2.1.328 (Claude Code)`; the first word is the version. */
export const CLAUDE_COMMAND: ProviderCommand = {
  command: 'claude',
  versionFrom: (stdout) => stdout.trim().split(/\s+/)[0],
};

/**
 * The provider binary: the one the operator named, else `claude` on the constructed PATH
 * (issue 4 item 1), resolved by the seam's kit with its version and digest (R10.7).
 */
export function resolveClaude(named: string | null, environment: NodeJS.ProcessEnv, known: readonly KnownDigest[] = []): Promise<ProviderResolution> {
  return resolveProvider(CLAUDE_COMMAND, named, environment, known);
}
