import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

/** What points claude at its configuration directory, in place of `~/.claude` (and `~/.claude.json`). */
export const CLAUDE_CONFIG_VARIABLE = 'CLAUDE_CONFIG_DIR';

/** The login file claude reads from its configuration directory, where the operator uses one (docs/facts.md item 11). */
const CREDENTIALS_FILE = '.credentials.json';

/**
 * Makes the attempt's private Claude configuration directory inside the settings file's private
 * directory (removed with it, on every ending): claude keeps its transcripts, its own state and
 * any settings the session writes there, never in the operator's `~/.claude`, and nothing the
 * session plants there outlives the attempt. The operator's login is linked in, never copied:
 * inside the boundary the file is bound read-only (the manifest's `readablePaths`).
 */
export function makePrivateConfigDirectory(privateDirectory: string, home: string | undefined): string {
  const directory = join(privateDirectory, 'config');
  mkdirSync(directory, { mode: 0o700 });
  if (home !== undefined && home !== '') {
    const credentials = join(home, '.claude', CREDENTIALS_FILE);
    if (existsSync(credentials)) symlinkSync(credentials, join(directory, CREDENTIALS_FILE));
  }
  return directory;
}
