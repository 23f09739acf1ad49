import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { STATE_DIRECTORY } from '@statecraft/records';

const EXCLUDE_PATTERN = `/${STATE_DIRECTORY}/`;

/**
 * Keeps `.statecraft/state/` out of git without touching the operator's checkout: the pattern
 * goes into the repository's `info/exclude` (in its common git directory, shared by its
 * worktrees), which is not a tracked file, so `git status` and HEAD are unchanged (R8.6). Adding
 * to `.gitignore` would have modified the checkout. Synchronous: a few bytes, read on the way to
 * `git worktree add`, which must start before the caller's next step (prepare-workspace.ts).
 */
export function excludeStateDirectory(commonDirectory: string): void {
  const excludeFile = join(commonDirectory, 'info', 'exclude');
  let current = '';
  try {
    current = readFileSync(excludeFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (current.split('\n').some((line) => line.trim() === EXCLUDE_PATTERN)) return;
  mkdirSync(dirname(excludeFile), { recursive: true });
  const separator = current === '' || current.endsWith('\n') ? '' : '\n';
  appendFileSync(excludeFile, `${separator}# statecraft: attempt workspaces, never committed\n${EXCLUDE_PATTERN}\n`);
}
