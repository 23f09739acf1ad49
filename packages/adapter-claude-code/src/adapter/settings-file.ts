import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, isAbsolute } from 'node:path';
import type { ClaudeSettingsDocument } from './settings-document.js';

export type SettingsFile =
  | {
      kind: 'written';
      path: string;
      /** The private directory holding the file; removing it removes the file. */
      directory: string;
      /** Removes the file and its private directory; a failure is returned, never thrown. */
      remove(): Promise<{ kind: 'removed' } | { kind: 'cleanup-failed'; path: string; message: string }>;
    }
  | { kind: 'refused'; message: string };

function isInside(child: string, parent: string): boolean {
  const path = relative(parent, child);
  return path === '' || (!path.startsWith('..') && !isAbsolute(path));
}

/**
 * Writes the settings document to a private file (R10.1): a fresh 0700 directory under the
 * temporary directory, the file created exclusively (`wx`, so nothing pre-placed is reused) with
 * mode 0600, and never inside the workspace, where the session could rewrite its own rules.
 */
export async function writePrivateSettingsFile(document: ClaudeSettingsDocument, workspace: string): Promise<SettingsFile> {
  const base = tmpdir();
  if (isInside(base, workspace)) {
    return { kind: 'refused', message: `the temporary directory ${base} is inside the workspace ${workspace}; the settings file must live outside it` };
  }
  const directory = await mkdtemp(join(base, 'statecraft-claude-settings-'));
  const path = join(directory, 'settings.json');
  const handle = await open(path, 'wx', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(document, null, 2)}\n`);
  } finally {
    await handle.close();
  }
  return {
    kind: 'written',
    path,
    directory,
    async remove() {
      try {
        await rm(directory, { recursive: true });
        return { kind: 'removed' };
      } catch (error) {
        return { kind: 'cleanup-failed', path: directory, message: (error as Error).message };
      }
    },
  };
}
