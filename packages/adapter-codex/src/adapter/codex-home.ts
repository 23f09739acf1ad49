import { mkdir, mkdtemp } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { isPathInside, privateDirectoryRemoval, writeExclusivePrivateFile } from '@statecraft/adapter';
import type { PrivateRemoval } from '@statecraft/adapter';

export type CodexHome =
  | {
      kind: 'made';
      /** The private CODEX_HOME of this attempt. */
      path: string;
      /** The one config document Codex reads (R10.1). */
      configPath: string;
      /** The private file the adapter's hook appends denials to. */
      channelPath: string;
      /** Removes the whole private home; a failure is returned, never thrown (R10.1). */
      remove(): Promise<PrivateRemoval>;
    }
  | { kind: 'refused'; message: string };

/** Where the per-attempt homes live: under the managed path `~/.codex`, never the operator's own configuration in it. */
export function codexHomesRoot(home: string): string {
  return join(home, '.codex', 'statecraft-attempts');
}

/**
 * Makes this attempt's private CODEX_HOME: a fresh 0700 directory under `~/.codex/statecraft-attempts`
 * (the operator's `~/.codex/config.toml`, `auth.json` and sessions are never read: Codex reads only
 * this directory), holding the config document created exclusively with mode 0600. Refused inside
 * the workspace (the session could rewrite its own rules) and under the attempt's TMPDIR (measured:
 * Codex then cannot create its sandbox helper, docs/facts.md item 23).
 */
export async function makePrivateCodexHome(
  environment: NodeJS.ProcessEnv,
  workspace: string,
  configText: (paths: { home: string; channel: string }) => string,
): Promise<CodexHome> {
  const home = environment.HOME;
  if (home === undefined || !isAbsolute(home)) {
    return {
      kind: 'refused',
      message: `HOME is ${home === undefined ? 'not set' : `not absolute (${home})`} in the constructed environment; the private CODEX_HOME is made under ~/.codex`,
    };
  }
  const root = codexHomesRoot(home);
  if (isPathInside(root, workspace))
    return { kind: 'refused', message: `${root} is inside the workspace ${workspace}; the private CODEX_HOME must live outside it` };
  const tmp = environment.TMPDIR;
  if (tmp !== undefined && tmp !== '' && isPathInside(root, tmp)) {
    return { kind: 'refused', message: `${root} is under TMPDIR ${tmp}; Codex cannot create its sandbox helper there (docs/facts.md item 23)` };
  }
  try {
    await mkdir(root, { recursive: true, mode: 0o700 });
    const path = await mkdtemp(join(root, 'home-'));
    const configPath = join(path, 'config.toml');
    const channelPath = join(path, 'statecraft-denials.jsonl');
    writeExclusivePrivateFile(configPath, configText({ home: path, channel: channelPath }));
    return { kind: 'made', path, configPath, channelPath, remove: privateDirectoryRemoval(path) };
  } catch (error) {
    return {
      kind: 'refused',
      message: `cannot make a private CODEX_HOME under ${root} (${(error as Error).message}); ~/.codex must be writable (it is the adapter's managed path)`,
    };
  }
}
