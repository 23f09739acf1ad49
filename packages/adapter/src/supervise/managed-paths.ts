import { mkdir } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';

/**
 * The adapter's declared managed paths (R10.6) as absolute paths, each made (0700) when absent, so
 * the evidence boundary can bind it writable (R12: the provider's configuration is writable): a
 * path that does not exist cannot be bound, and the provider inside the sandbox could not make it
 * on the read-only root. `~` is the constructed HOME; a `~` path without one, or a relative path,
 * is left out (the provider then fails visibly inside, R5.4). A path that cannot be made is left
 * out the same way, never a reason to drop the boundary.
 */
export async function prepareManagedPaths(managedPaths: readonly string[], home: string | undefined): Promise<string[]> {
  const prepared: string[] = [];
  for (const declared of managedPaths) {
    const path = declared === '~' || declared.startsWith('~/') ? (home === undefined || home === '' ? undefined : join(home, declared.slice(1))) : declared;
    if (path === undefined || !isAbsolute(path)) continue;
    try {
      await mkdir(path, { recursive: true, mode: 0o700 });
      prepared.push(path);
    } catch {
      // Left out: the boundary profile records what was bound.
    }
  }
  return prepared;
}
