import { mkdirSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { isPathInside, privateDirectoryRemoval, writeExclusivePrivateFile } from '@statecraft/adapter';
import type { PrivateRemoval } from '@statecraft/adapter';

export type CodexHome =
  | {
      kind: 'made';
      /** This attempt's private directory, inside the attempt's TMPDIR; everything below lives and goes with it. */
      directory: string;
      /** The private CODEX_HOME of this attempt. */
      codexHome: string;
      /** Codex's own TMPDIR: a sibling of CODEX_HOME, never its parent (docs/facts.md items 23, 30). */
      temporaryDirectory: string;
      /** The one config document Codex reads (R10.1). */
      configPath: string;
      /** The private file the adapter's hook appends denials to; beside CODEX_HOME, so Codex's own writes do not wake its watcher. */
      channelPath: string;
      /** Removes the whole private directory; a failure is returned, never thrown (R10.1). */
      remove(): Promise<PrivateRemoval>;
    }
  | { kind: 'refused'; message: string };

/**
 * Makes this attempt's private directory: a fresh 0700 directory in the attempt's TMPDIR holding
 * CODEX_HOME (the config document, created exclusively with mode 0600), Codex's own TMPDIR and the
 * denial channel. In the attempt's TMPDIR, because the supervisor makes it per attempt and removes
 * it afterwards whatever became of the adapter: an adapter killed at the deadline (SIGKILL, no
 * handler runs) leaves nothing behind in the operator's `~/.codex` (R10.1). Codex refuses to make
 * its sandbox helper under the TMPDIR it is given (docs/facts.md items 23, 30), so it is given a
 * sibling of CODEX_HOME as its TMPDIR. The operator's own `~/.codex` is never read: Codex reads
 * only CODEX_HOME. Refused inside the workspace, where the session could rewrite its own rules;
 * Codex's sandbox lets its commands write the workspace only.
 */
export async function makePrivateCodexHome(
  environment: NodeJS.ProcessEnv,
  workspace: string,
  configText: (paths: { home: string; channel: string }) => string,
): Promise<CodexHome> {
  const tmp = environment.TMPDIR;
  if (tmp === undefined || !isAbsolute(tmp)) {
    return {
      kind: 'refused',
      message: `TMPDIR is ${tmp === undefined ? 'not set' : `not absolute (${tmp})`} in the constructed environment; the private CODEX_HOME is made in the attempt's TMPDIR, which the supervisor sets (R5.5)`,
    };
  }
  if (isPathInside(tmp, workspace))
    return { kind: 'refused', message: `TMPDIR ${tmp} is inside the workspace ${workspace}; the private CODEX_HOME must live outside it` };
  try {
    const directory = await mkdtemp(join(tmp, 'statecraft-codex-'));
    const codexHome = join(directory, 'codex-home');
    const temporaryDirectory = join(directory, 'codex-tmp');
    mkdirSync(codexHome, { mode: 0o700 });
    mkdirSync(temporaryDirectory, { mode: 0o700 });
    const configPath = join(codexHome, 'config.toml');
    const channelPath = join(directory, 'statecraft-denials.jsonl');
    writeExclusivePrivateFile(configPath, configText({ home: codexHome, channel: channelPath }));
    return { kind: 'made', directory, codexHome, temporaryDirectory, configPath, channelPath, remove: privateDirectoryRemoval(directory) };
  } catch (error) {
    return { kind: 'refused', message: `cannot make a private CODEX_HOME in TMPDIR ${tmp} (${(error as Error).message})` };
  }
}
