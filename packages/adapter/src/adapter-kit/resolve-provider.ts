import { realpathSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { digestFile } from '../content-digest.js';
import { matchKnownDigest } from '../digest-cache.js';
import type { KnownDigest } from '../digest-cache.js';
import { checkExecutableFileSync, findExecutableOnPath } from '../executable-file.js';
import type { ProviderIdentity } from '../protocol/events.js';

export type ProviderResolution = { kind: 'resolved'; executable: string; identity: ProviderIdentity } | { kind: 'not-found'; message: string };

/** What an adapter knows of its provider's command: the name to look up, and how it states its version. */
export interface ProviderCommand {
  /** The command looked up on the constructed PATH; also the provider's name in the init. */
  command: string;
  /**
   * The version the provider states when asked (`<command> --version`, run by the adapter: the kit
   * spawns nothing), or `undefined` where the answer is not the provider's. Absent where the
   * provider states its version in its own stream: no process is spent asking, and the identity's
   * version stays `not-recorded` until the adapter reads it there.
   */
  askVersion?: (executable: string, environment: NodeJS.ProcessEnv) => string | undefined;
}

function readVersion(provider: ProviderCommand, executable: string, environment: NodeJS.ProcessEnv): string {
  if (provider.askVersion === undefined) return 'not-recorded';
  const version = provider.askVersion(executable, environment);
  return version !== undefined && version !== '' ? version : 'not-recorded';
}

/** The supervisor's digest of the provider, when it still describes the file; a file that cannot be read is hashed (and fails) there instead. */
function handedDigest(executable: string, known: readonly KnownDigest[]): string | undefined {
  try {
    const handed = matchKnownDigest(executable, known);
    return handed === undefined ? undefined : `sha256:${handed.sha256}`;
  } catch {
    return undefined;
  }
}

/**
 * The provider binary: the one the operator named, else the provider's command on the constructed
 * PATH. Its version (from `--version`, where the provider's stream does not state it) and content
 * digest go into the init event, so what is qualified is the pair (R10.7). The digest is of the real file behind any symlink: the supervisor's, when the request
 * hands one over for that real path and the file's identity still matches (it hashed the binary at
 * planning); otherwise the adapter hashes it.
 */
export async function resolveProvider(
  provider: ProviderCommand,
  named: string | null,
  environment: NodeJS.ProcessEnv,
  known: readonly KnownDigest[] = [],
): Promise<ProviderResolution> {
  // A relative name would resolve against the workspace (the adapter's cwd), not where the operator meant.
  if (named !== null && !isAbsolute(named)) return { kind: 'not-found', message: `the named provider ${named} is not an absolute path` };
  const executable = named !== null ? named : findExecutableOnPath(provider.command, environment.PATH);
  if (executable === undefined) {
    return { kind: 'not-found', message: `no executable "${provider.command}" on the constructed PATH (${environment.PATH ?? 'PATH not set'})` };
  }
  if (checkExecutableFileSync(executable) !== 'usable') return { kind: 'not-found', message: `the named provider ${executable} is not an executable file` };
  const digest = handedDigest(executable, known) ?? (await digestFile(realpathSync(executable)));
  return { kind: 'resolved', executable, identity: { name: provider.command, version: readVersion(provider, executable, environment), digest } };
}
