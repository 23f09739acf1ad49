import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * The path with every link resolved, as far as it exists: the existing ancestor's real path, then
 * the components that do not exist yet (mkdir makes them through the same links).
 */
export function resolvedThroughLinks(path: string): string {
  const absolute = resolve(path);
  if (existsSync(absolute)) {
    try {
      return realpathSync.native(absolute);
    } catch {
      return absolute;
    }
  }
  const parent = dirname(absolute);
  return parent === absolute ? absolute : join(resolvedThroughLinks(parent), basename(absolute));
}
