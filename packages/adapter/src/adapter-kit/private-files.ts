import { closeSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';

/** What removing an adapter's private file or directory came to: a failure is returned, never thrown (R10.1). */
export type PrivateRemoval = { kind: 'removed' } | { kind: 'cleanup-failed'; path: string; message: string };

/** Whether `child` is `parent` or below it: a private file there could be rewritten by the session it governs. */
export function isPathInside(child: string, parent: string): boolean {
  const path = relative(parent, child);
  return path === '' || (!path.startsWith('..') && !isAbsolute(path));
}

// Synchronous file steps: the adapter writes its private files on its way to the provider's start
// and removes them between the provider's exit and its own last word, with nothing else to do;
// each asynchronous step would be a round trip through libuv's thread pool.

/** Creates `path` exclusively (`wx`, so nothing pre-placed is reused) with mode 0600, holding `text` (R10.1). */
export function writeExclusivePrivateFile(path: string, text: string): void {
  const descriptor = openSync(path, 'wx', 0o600);
  try {
    writeFileSync(descriptor, text);
  } finally {
    closeSync(descriptor);
  }
}

/**
 * The removal of a private directory and all it holds, for the adapter to call once the provider is
 * done. Removed synchronously; the answer stays a promise, as every caller awaits it.
 */
export function privateDirectoryRemoval(directory: string): () => Promise<PrivateRemoval> {
  return () => Promise.resolve(removePrivateDirectory(directory));
}

function removePrivateDirectory(directory: string): PrivateRemoval {
  try {
    rmSync(directory, { recursive: true });
    return { kind: 'removed' };
  } catch (error) {
    return { kind: 'cleanup-failed', path: directory, message: (error as Error).message };
  }
}
