import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import { runGit } from './git.js';

/** The target-relative directory holding workspaces; never committed. */
export const STATE_DIRECTORY = '.statecraft/state';
const EXCLUDE_PATTERN = `/${STATE_DIRECTORY}/`;

/**
 * Keeps `.statecraft/state/` out of git without touching the operator's checkout: the pattern
 * goes into the repository's `info/exclude`, which is not a tracked file, so `git status` and
 * HEAD are unchanged (R8.6). Adding to `.gitignore` would have modified the checkout.
 */
export async function excludeStateDirectory(targetPath: string): Promise<void> {
  const answer = await runGit(targetPath, ['rev-parse', '--git-path', 'info/exclude']);
  if (!answer.ok) throw new Error(`${targetPath}: cannot locate info/exclude (${answer.stderr})`);
  const excludeFile = isAbsolute(answer.stdout) ? answer.stdout : join(targetPath, answer.stdout);
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
