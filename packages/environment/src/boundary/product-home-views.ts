import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Every other path at which the product home's directory can be reached (R12). The boundary hides
 * the home by path; a bind mount of the home, of one of its parents or of a part of it elsewhere
 * (a Docker volume, a bind-mounted home directory) reaches the same directory under another path,
 * and bwrap's `--ro-bind / /` carries that mount into the sandbox. Each such path is hidden and
 * probed as the home itself is (bwrap-boundary.ts).
 *
 * Read from the mount table, once per launch: the mount holding the home (the longest mount point
 * that is a prefix of its real path) gives its device and the home's path within that file system;
 * every other mount of the same device then exposes the home when its root is the home's path or a
 * parent of it (at mount point + the rest), or a part of it when its root lies inside the home (at
 * its mount point). Device numbers, not paths, are compared: a mount's source names are not
 * comparable, its device is.
 */

/** Another path at which the home (`whole`) or a part of it (`part`) is reached. */
export interface ProductHomeView {
  path: string;
  reaches: 'whole' | 'part';
}

interface MountEntry {
  device: string;
  root: string;
  mountPoint: string;
}

/** mountinfo escapes space, tab, newline and backslash as octal (`\040`); most paths have none, and skip the expression. */
function unescapeMountPath(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(/\\([0-7]{3})/g, (_match, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

/** The lines of /proc/<pid>/mountinfo: `id parent major:minor root mount-point options … - type source …`. */
function parseMountInfo(text: string): MountEntry[] {
  const entries: MountEntry[] = [];
  for (const line of text.split('\n')) {
    const fields = line.split(' ', 5);
    const [, , device, root, mountPoint] = fields;
    if (device === undefined || root === undefined || mountPoint === undefined || !device.includes(':')) continue;
    entries.push({ device, root: unescapeMountPath(root), mountPoint: unescapeMountPath(mountPoint) });
  }
  return entries;
}

/** `inner` relative to `outer` ('' when equal), or undefined when `outer` is not `inner` or a parent of it. */
function below(outer: string, inner: string): string | undefined {
  if (outer === inner) return '';
  const prefix = outer.endsWith('/') ? outer : `${outer}/`;
  return inner.startsWith(prefix) ? inner.slice(prefix.length) : undefined;
}

/**
 * The home's real path: symbolic links resolved, as mount points are. A home not made yet (it is
 * made just before the probe) resolves through its nearest existing parent.
 */
function realPathOf(path: string): string {
  let missing = '';
  let existing = path;
  while (!existsSync(existing) && dirname(existing) !== existing) {
    missing = missing === '' ? basename(existing) : join(basename(existing), missing);
    existing = dirname(existing);
  }
  return missing === '' ? realpathSync(existing) : join(realpathSync(existing), missing);
}

/**
 * The other views of `home` in `mountInfo` (the text of a mountinfo file). Pure, for tests; a view
 * whose path does not exist (under a mount laid over it) reaches nothing and is left out.
 */
export function productHomeViewsIn(mountInfo: string, home: string, exists: (path: string) => boolean = existsSync): ProductHomeView[] {
  const mounts = parseMountInfo(mountInfo);
  // The mount holding the home: the longest mount point above it; of equal ones, the last (on top).
  let holding: MountEntry | undefined;
  for (const mount of mounts) {
    if (below(mount.mountPoint, home) !== undefined && (holding === undefined || mount.mountPoint.length >= holding.mountPoint.length)) holding = mount;
  }
  if (holding === undefined) return [];
  const rest = below(holding.mountPoint, home) ?? '';
  const withinFileSystem = rest === '' ? holding.root : join(holding.root, rest);
  const views = new Map<string, ProductHomeView>();
  for (const mount of mounts) {
    if (mount === holding || mount.device !== holding.device) continue;
    const tail = below(mount.root, withinFileSystem);
    if (tail !== undefined) {
      const path = tail === '' ? mount.mountPoint : join(mount.mountPoint, tail);
      if (path !== home && exists(path)) views.set(path, { path, reaches: 'whole' });
    } else if (below(withinFileSystem, mount.root) !== undefined && mount.mountPoint !== home && exists(mount.mountPoint)) {
      views.set(mount.mountPoint, { path: mount.mountPoint, reaches: 'part' });
    }
  }
  return [...views.values()];
}

/**
 * The other views of a directory on this machine — the product home, or the agents' workspaces an
 * acceptance's checks must not see — from this process's mount table (read once per call).
 */
export function findOtherViews(directory: string): ProductHomeView[] {
  return productHomeViewsIn(readFileSync('/proc/self/mountinfo', 'utf8'), realPathOf(directory));
}
