import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { checkExecutableFileSync, digestFile, findExecutableOnPath, matchKnownDigest } from '@statecraft/adapter';
import type { KnownDigest, ProviderIdentity } from '@statecraft/adapter';

export type ProviderResolution = { kind: 'resolved'; executable: string; identity: ProviderIdentity } | { kind: 'not-found'; message: string };

/** `codex --version` answers `codex-cli 0.171.0`; the last word is the version. */
function readVersion(executable: string, environment: NodeJS.ProcessEnv): string {
  const answer = spawnSync(executable, ['--version'], { env: environment, encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'pipe'] });
  const words = (answer.stdout ?? '').trim().split(/\s+/);
  const last = words.at(-1);
  return answer.status === 0 && words[0] === 'codex-cli' && last !== undefined && last !== '' ? last : 'not-recorded';
}

/**
 * The provider binary: the one the operator named, else `codex` on the constructed PATH
 * (issue 13 item 1). Its version and content digest go into the init event, so what is qualified
 * is the pair (R10.7). The digest is of the real file behind any symlink: the supervisor's, when
 * the request hands one over for that real path and the file's identity still matches (it hashed
 * the binary at planning); otherwise the adapter hashes it.
 */
export async function resolveProvider(named: string | null, environment: NodeJS.ProcessEnv, known: readonly KnownDigest[] = []): Promise<ProviderResolution> {
  // A relative name would resolve against the workspace (the adapter's cwd), not where the operator meant.
  if (named !== null && !isAbsolute(named)) return { kind: 'not-found', message: `the named provider ${named} is not an absolute path` };
  const executable = named !== null ? named : findExecutableOnPath('codex', environment.PATH);
  if (executable === undefined) {
    return { kind: 'not-found', message: `no executable "codex" on the constructed PATH (${environment.PATH ?? 'PATH not set'})` };
  }
  if (checkExecutableFileSync(executable) !== 'usable') return { kind: 'not-found', message: `the named provider ${executable} is not an executable file` };
  const handed = await matchKnownDigest(executable, known).catch(() => undefined);
  const digest = handed === undefined ? await digestFile(realpathSync(executable)) : `sha256:${handed.sha256}`;
  return { kind: 'resolved', executable, identity: { name: 'codex', version: readVersion(executable, environment), digest } };
}
