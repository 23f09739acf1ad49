import { accessSync, constants, statSync } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';

/** Whether a path can be executed, or what is wrong with it: one reading for every caller. */
export type ExecutableCheck = 'usable' | 'missing' | 'not-a-file' | 'not-executable';

/** The check in words, for messages that name the path. */
export const EXECUTABLE_CHECK_WORDS: Record<Exclude<ExecutableCheck, 'usable'>, string> = {
  missing: 'no such file',
  'not-a-file': 'not a file',
  'not-executable': 'not executable',
};

/** A regular file (symlinks followed) that this process may execute. */
export async function checkExecutableFile(path: string): Promise<ExecutableCheck> {
  const info = await stat(path).catch(() => undefined);
  if (info === undefined) return 'missing';
  if (!info.isFile()) return 'not-a-file';
  try {
    await access(path, constants.X_OK);
    return 'usable';
  } catch {
    return 'not-executable';
  }
}

/** The same check, synchronously, for a PATH search that must not yield. */
export function checkExecutableFileSync(path: string): ExecutableCheck {
  let isFile: boolean;
  try {
    isFile = statSync(path).isFile();
  } catch {
    return 'missing';
  }
  if (!isFile) return 'not-a-file';
  try {
    accessSync(path, constants.X_OK);
    return 'usable';
  } catch {
    return 'not-executable';
  }
}

/**
 * Where a bare command resolves on a PATH value, as a shell would find it: the first executable
 * file in order. Relative entries are skipped, since whoever runs it may have another working
 * directory. Reads the file system only; executes nothing.
 */
export function findExecutableOnPath(command: string, pathValue: string | undefined): string | undefined {
  for (const directory of (pathValue ?? '').split(delimiter)) {
    if (directory === '' || !isAbsolute(directory)) continue;
    const candidate = join(directory, command);
    if (checkExecutableFileSync(candidate) === 'usable') return candidate;
  }
  return undefined;
}
