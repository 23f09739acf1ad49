import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isPathInside, privateDirectoryRemoval, writeExclusivePrivateFile } from '@statecraft/adapter';
import type { PrivateRemoval } from '@statecraft/adapter';
import type { ClaudeSettingsDocument } from './settings-document.js';

export type SettingsFile =
  | {
      kind: 'written';
      path: string;
      /** The private directory holding the file; removing it removes the file. */
      directory: string;
      /** Removes the file and its private directory; a failure is returned, never thrown. */
      remove(): Promise<PrivateRemoval>;
    }
  | { kind: 'refused'; message: string };

/**
 * Writes the settings document to a private file (R10.1): a fresh 0700 directory under the
 * temporary directory, the file created exclusively (`wx`, so nothing pre-placed is reused) with
 * mode 0600, and never inside the workspace, where the session could rewrite its own rules.
 */
export function writePrivateSettingsFile(document: ClaudeSettingsDocument, workspace: string): SettingsFile {
  const base = tmpdir();
  if (isPathInside(base, workspace)) {
    return { kind: 'refused', message: `the temporary directory ${base} is inside the workspace ${workspace}; the settings file must live outside it` };
  }
  // Synchronous, as the kit's private-file steps are: nothing else runs before claude starts.
  const directory = mkdtempSync(join(base, 'statecraft-claude-settings-'));
  const path = join(directory, 'settings.json');
  writeExclusivePrivateFile(path, `${JSON.stringify(document, null, 2)}\n`);
  return { kind: 'written', path, directory, remove: privateDirectoryRemoval(directory) };
}
