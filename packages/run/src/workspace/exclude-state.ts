import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** The target-relative directory holding workspaces; never committed. */
export const STATE_DIRECTORY = '.statecraft/state';
const EXCLUDE_PATTERN = `/${STATE_DIRECTORY}/`;

/**
 * Keeps `.statecraft/state/` out of git without touching the operator's checkout: the pattern
 * goes into the repository's `info/exclude` (in its common git directory, shared by its
 * worktrees), which is not a tracked file, so `git status` and HEAD are unchanged (R8.6). Adding
 * to `.gitignore` would have modified the checkout.
 */
export async function excludeStateDirectory(commonDirectory: string): Promise<void> {
  const excludeFile = join(commonDirectory, 'info', 'exclude');
  let current = '';
  try {
    current = await readFile(excludeFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (current.split('\n').some((line) => line.trim() === EXCLUDE_PATTERN)) return;
  await mkdir(dirname(excludeFile), { recursive: true });
  const separator = current === '' || current.endsWith('\n') ? '' : '\n';
  await appendFile(excludeFile, `${separator}# statecraft: attempt workspaces, never committed\n${EXCLUDE_PATTERN}\n`);
}
