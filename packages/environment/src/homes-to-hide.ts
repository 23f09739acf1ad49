import { existsSync, lstatSync, readdirSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { findOtherViews } from './boundary/product-home-views.js';

/** A home the boundary hides under an empty tmpfs (boundary-profile.ts): the operator's own, writable; another's, read-only. */
export interface HiddenHome {
  path: string;
  role: 'operator-home' | 'other-home';
}

/** Where other users' homes are: root's, and each directory of /home. */
const ROOT_HOME = '/root';
const HOMES = '/home';

function isDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

export function isSameOrBelow(path: string, parent: string): boolean {
  return path === parent || path.startsWith(parent.endsWith('/') ? parent : `${parent}/`);
}

/**
 * The homes hidden from the child: the operator's (`HOME`, its real path), and
 * root's and each directory of /home besides it. A parent comes before what lies below it (a
 * HOME inside /home/alice is laid over alice's hidden home). A HOME that is not an absolute
 * directory, or is `/`, hides nothing of its own; the others are hidden still. Every other path at
 * which one of them, or a part of one, is reached (a bind mount of the home or of a parent, as the
 * product home's are found: product-home-views.ts) is hidden too, read-only and empty: hidden at its
 * path alone, the operator's home was read whole through a bind mount of its parent elsewhere.
 */
export function homesToHide(home: string | undefined): HiddenHome[] {
  let own: string | undefined;
  if (home !== undefined && isAbsolute(home) && existsSync(home)) {
    const real = realpathSync(home);
    if (real !== '/' && isDirectory(real)) own = real;
  }
  let others: string[];
  try {
    others = readdirSync(HOMES).map((name) => join(HOMES, name));
  } catch {
    others = [];
  }
  const homes: HiddenHome[] = [ROOT_HOME, ...others].filter((path) => path !== own && isDirectory(path)).map((path) => ({ path, role: 'other-home' as const }));
  if (own !== undefined) {
    // A home the operator's lies inside hides nothing the operator's does not: only the operator's is kept.
    const covering = homes.filter((entry) => isSameOrBelow(entry.path, own));
    homes.splice(0, homes.length, ...homes.filter((entry) => !covering.includes(entry)), { path: own, role: 'operator-home' });
  }
  for (const view of homes.flatMap((entry) => otherViewsOf(entry.path))) {
    if (view !== '/' && !homes.some((entry) => isSameOrBelow(view, entry.path))) homes.push({ path: view, role: 'other-home' });
  }
  return homes.sort((a, b) => a.path.length - b.path.length);
}

/** The other paths at which `home` or a part of it is reached, from the mount table; none when it cannot be read. */
function otherViewsOf(home: string): string[] {
  try {
    return findOtherViews(home).map((view) => view.path);
  } catch {
    return [];
  }
}

/** A PATH entry named so is a tool's `bin` (or pyenv's `shims`): the tool's prefix, its parent, holds what its programs run. */
const PREFIX_ENTRIES = new Set(['bin', 'sbin', 'shims']);

/**
 * What of the hidden homes the constructed PATH needs: each entry inside one, exposed read-only
 * with its tool's prefix (`~/.pyenv/shims` → `~/.pyenv`, `~/.cargo/bin` → `~/.cargo`) — a shim or
 * a link on PATH runs what lies beside it — so the programs the operator installed there still run.
 * Never a home itself: a `~/bin` entry is exposed alone.
 */
export function pathEntriesInside(homes: readonly HiddenHome[], path: string | undefined): string[] {
  const entries = (path ?? '').split(':').filter((entry) => isAbsolute(entry) && existsSync(entry));
  const exposed = entries.flatMap((entry) => {
    const home = homes.find((candidate) => isSameOrBelow(entry, candidate.path) && entry !== candidate.path);
    if (home === undefined) return [];
    const prefix = dirname(entry);
    return [PREFIX_ENTRIES.has(basename(entry)) && prefix !== home.path ? prefix : entry];
  });
  // A prefix holds its own entries: each path once, and none inside another.
  const unique = [...new Set(exposed)];
  return unique.filter((entry) => !unique.some((other) => other !== entry && isSameOrBelow(entry, other)));
}

/**
 * What holds each program the launch runs (the adapter, its provider), when it lies in a hidden
 * home: the outermost directory below that home, on the way to the program, that holds a
 * `node_modules` (the project statecraft or the adapter is installed in: what the program loads
 * lies there), else the program's own directory. Never a home itself, and never a directory that
 * holds the product home: the probe would refuse it, and rightly.
 */
export function programHoldersInside(homes: readonly HiddenHome[], programs: readonly string[], productHome: string): string[] {
  const holders = programs.flatMap((program) => {
    let real: string;
    try {
      real = realpathSync(program);
    } catch {
      return [];
    }
    const home = homes.find((candidate) => isSameOrBelow(real, candidate.path) && real !== candidate.path);
    if (home === undefined) return [];
    const below = real
      .slice(home.path.length + 1)
      .split('/')
      .slice(0, -1);
    let holder = dirname(real);
    for (let depth = 1; depth <= below.length; depth += 1) {
      const directory = join(home.path, ...below.slice(0, depth));
      if (existsSync(join(directory, 'node_modules'))) {
        holder = directory;
        break;
      }
    }
    return holder === home.path || isSameOrBelow(productHome, holder) ? [] : [holder];
  });
  const unique = [...new Set(holders)];
  return unique.filter((entry) => !unique.some((other) => other !== entry && isSameOrBelow(entry, other)));
}
