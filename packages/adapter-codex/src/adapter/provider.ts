import { spawnSync } from 'node:child_process';
import { resolveProvider } from '@statecraft/adapter';
import type { KnownDigest, ProviderCommand, ProviderResolution } from '@statecraft/adapter';

export type { ProviderResolution } from '@statecraft/adapter';

/** `codex --version` answers `codex-cli 0.171.0`; the last word is the version. */
export const CODEX_COMMAND: ProviderCommand = {
  command: 'codex',
  askVersion(executable, environment) {
    const answer = spawnSync(executable, ['--version'], { env: environment, encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'pipe'] });
    const words = (answer.stdout ?? '').trim().split(/\s+/);
    return answer.status === 0 && words[0] === 'codex-cli' ? words.at(-1) : undefined;
  },
};

/**
 * The provider binary: the one the operator named, else `codex` on the constructed PATH,
 * resolved by the seam's kit with its version and digest (R10.7).
 */
export function resolveCodex(named: string | null, environment: NodeJS.ProcessEnv, known: readonly KnownDigest[] = []): Promise<ProviderResolution> {
  return resolveProvider(CODEX_COMMAND, named, environment, known);
}
