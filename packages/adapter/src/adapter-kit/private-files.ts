import { open, rm } from 'node:fs/promises';
import { isAbsolute, relative } from 'node:path';

/** What removing an adapter's private file or directory came to: a failure is returned, never thrown (R10.1). */
export type PrivateRemoval = { kind: 'removed' } | { kind: 'cleanup-failed'; path: string; message: string };

/** Whether `child` is `parent` or below it: a private file there could be rewritten by the session it governs. */
export function isPathInside(child: string, parent: string): boolean {
  const path = relative(parent, child);
  return path === '' || (!path.startsWith('..') && !isAbsolute(path));
}

/** Creates `path` exclusively (`wx`, so nothing pre-placed is reused) with mode 0600, holding `text` (R10.1). */
export async function writeExclusivePrivateFile(path: string, text: string): Promise<void> {
  const handle = await open(path, 'wx', 0o600);
  try {
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
}

/** The removal of a private directory and all it holds, for the adapter to call once the provider is done. */
export function privateDirectoryRemoval(directory: string): () => Promise<PrivateRemoval> {
  return async () => {
    try {
      await rm(directory, { recursive: true });
      return { kind: 'removed' };
    } catch (error) {
      return { kind: 'cleanup-failed', path: directory, message: (error as Error).message };
    }
  };
}
