import { lstatSync, readlinkSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { findExecutableOnPath } from '@statecraft/adapter';
import type { ProtectedLocation } from './managed-paths.js';
import { resolvedThroughLinks } from './resolved-through-links.js';

/**
 * The programs statecraft itself runs outside the sandbox, as the operator: git (every git call of
 * a run), bwrap, unshare and setpriv (the boundary and the containment), sh, bash and env (the
 * probe, the descriptor closer, a check's shell), node (statecraft's own next start).
 */
const PROGRAMS_RUN_OUTSIDE = ['git', 'bwrap', 'unshare', 'setpriv', 'sh', 'bash', 'env', 'node'] as const;

/** Where statecraft also looks some of them up, whatever PATH says: the closer's bash and env, and `/bin/sh` (bwrap-boundary.ts, a check's shell). */
const FIXED_LOOKUP = '/usr/bin:/bin';
const LOOKED_UP_AT_FIXED_PLACES: ReadonlySet<string> = new Set(['bash', 'env', 'sh']);

/** A link chain longer than this is one the kernel itself refuses (ELOOP at 40). */
const MOST_LINK_HOPS = 40;

/** What an installation prefix holds that a program in its `bin` loads or reads, when the prefix as a whole cannot be protected. */
const INSTALLATION_DIRECTORIES = ['bin', 'sbin', 'lib', 'lib64', 'libexec', 'etc', 'share'] as const;

/**
 * Where each program statecraft runs outside the sandbox really lives, found as statecraft finds
 * it (each PATH given, and its fixed lookups) and followed link by link: for every hop, its
 * directory's real path and the installation prefix above it (the parent of a `bin` or `sbin`).
 * A directory on PATH holding only a link (`~/bin/git` → `~/.linuxbrew/Cellar/git/bin/git`) would
 * leave the directory the program is really read from in reach: declared managed, the agent could
 * replace git there, and statecraft's own git would run the agent's program as the operator on
 * every later run. The prefix counts too: git runs its helpers from its `libexec` and reads its
 * system configuration from its `etc`.
 *
 * A prefix that is, or holds, a place managed paths may lie (`roots`: a HOME, /tmp) — `~/bin/git`
 * has HOME for a prefix — is protected by its installation directories instead: protecting it whole
 * would refuse every path the provider may have.
 */
export function supervisorProgramLocations(pathValues: readonly (string | undefined)[], roots: readonly string[]): ProtectedLocation[] {
  const realRoots = roots.map(resolvedThroughLinks);
  const locations: ProtectedLocation[] = [];
  const seen = new Set<string>();
  for (const program of PROGRAMS_RUN_OUTSIDE) {
    const lookups = new Set([...pathValues, ...(LOOKED_UP_AT_FIXED_PLACES.has(program) ? [FIXED_LOOKUP] : [])]);
    const found = [...lookups].map((pathValue) => findExecutableOnPath(program, pathValue));
    // The node statecraft runs on now, wherever it was started from.
    if (program === 'node') found.push(process.execPath);
    for (const executable of found) {
      if (executable === undefined || seen.has(`${program}\0${executable}`)) continue;
      seen.add(`${program}\0${executable}`);
      for (const hop of linkHops(executable)) locations.push(...hopLocations(program, executable, hop, realRoots));
    }
  }
  return locations;
}

/** The path found, then each link's target in turn, relative targets read from the link's real directory, as the kernel does. */
function linkHops(executable: string): string[] {
  const hops = [executable];
  let at = executable;
  for (let hop = 0; hop < MOST_LINK_HOPS; hop += 1) {
    const target = linkTarget(at);
    if (target === undefined) break;
    at = resolve(resolvedThroughLinks(dirname(at)), target);
    hops.push(at);
  }
  return hops;
}

/** What a link names, or undefined for anything else (or what cannot be read): asked with lstat first, since readlink on a file that is no link throws, and exceptions are slow. */
function linkTarget(path: string): string | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() === true ? readlinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}

/** One hop's directory and installation prefix, each with its links resolved (protected locations are compared that way). */
function hopLocations(program: string, executable: string, hop: string, realRoots: readonly string[]): ProtectedLocation[] {
  const found = hop === executable ? `found at ${executable}` : `found at ${executable}, a link to ${hop}`;
  const directory = resolvedThroughLinks(dirname(hop));
  const locations = [{ path: directory, what: `the directory of ${program} (${found}), which statecraft runs outside the sandbox` }];
  if (!['bin', 'sbin'].includes(basename(directory))) return locations;
  const prefix = dirname(directory);
  const installation = `the installation of ${program} (${found}), which statecraft runs outside the sandbox`;
  if (!realRoots.some((root) => prefix === root || root.startsWith(prefix === '/' ? '/' : `${prefix}/`)))
    return [...locations, { path: prefix, what: installation }];
  return [...locations, ...INSTALLATION_DIRECTORIES.map((name) => ({ path: join(prefix, name), what: `part of ${installation}` }))];
}
