import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Makes `path` and whichever of its parents are missing, one component at a time, each with
 * `mode`. Node's `mkdir(…, { recursive: true })` is not used: on a file system that answers ENOENT
 * to a mkdir under a directory that exists (/proc, /sys), it retries the parent and the child for
 * ever, on the main thread or a pool thread, where no signal handler of ours can run. Here the
 * first refusal is thrown as the system gave it (with `code` and `path`), naming the component
 * that could not be made; a component that is not a directory is ENOTDIR naming it. Answers the
 * outermost directory this call made (as node's recursive mkdir does), undefined when none.
 */
export function makeDirectories(path: string, mode: number): string | undefined {
  const missing: string[] = [];
  for (let current = resolve(path); ; current = dirname(current)) {
    const found = statSync(current, { throwIfNoEntry: false });
    if (found !== undefined) {
      if (!found.isDirectory()) throw notADirectory(current);
      break;
    }
    missing.push(current);
    if (dirname(current) === current) break;
  }
  let first: string | undefined;
  for (const directory of missing.reverse()) {
    try {
      mkdirSync(directory, { mode });
      first ??= directory;
    } catch (error) {
      // Another process made it between the look and the mkdir: a directory is what was wanted.
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && statSync(directory).isDirectory()) continue;
      throw error;
    }
  }
  return first;
}

function notADirectory(path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${path}'`), { code: 'ENOTDIR', errno: -20, syscall: 'mkdir', path });
}
