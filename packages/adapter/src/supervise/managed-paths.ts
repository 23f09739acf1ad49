import { existsSync, lstatSync, realpathSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';

/**
 * A place a managed path must neither be nor hold nor lie inside: what it is, for the refusal.
 * The adapter declares its managed paths and is untrusted (R12): bound writable, a path over one of
 * these gives the agent the records, the repository's configuration, or a program statecraft runs
 * outside the sandbox.
 */
export interface ProtectedLocation {
  path: string;
  what: string;
}

export type ManagedPathsPreparation = { kind: 'prepared'; paths: string[] } | { kind: 'refused'; path: string; message: string };

/** Where a managed path may lie: strictly inside the constructed HOME (the provider's configuration), or inside /tmp (its sockets). */
const SHARED_TEMPORARY = '/tmp';

/**
 * The adapter's declared managed paths (R10.6) as absolute paths, each checked, then made (0700)
 * when absent, so the evidence boundary can bind it writable (R12: the provider's configuration is
 * writable): a path that does not exist cannot be bound, and the provider inside the sandbox could
 * not make it on the read-only root. `~` is the constructed HOME; a `~` path without one, or a
 * relative path, is left out (the provider then fails visibly inside, R5.4), as is a path that
 * cannot be made or is not a directory.
 *
 * Checked before anything is made, on the path with its links resolved: a managed path must lie
 * strictly inside the constructed HOME or /tmp (there, outside HOME, through no link and nothing
 * another user owns), and must not overlap a protected location. A
 * declaration that fails is refused, naming it: the launch is refused (R12), never run with the
 * path quietly dropped, since the adapter asked for it (found by a hostile pass, 2026-12-02: the
 * repository's `.git` declared managed let the agent set a git filter that statecraft's own
 * `git add` then ran, as root, outside the sandbox; a directory on PATH let it plant a `bwrap`
 * that every later run took for the boundary; a path in the product home was made there by
 * statecraft itself).
 */
export async function prepareManagedPaths(
  managedPaths: readonly string[],
  context: { home: string | undefined; protectedLocations: readonly ProtectedLocation[] },
): Promise<ManagedPathsPreparation> {
  const { home } = context;
  const homeGiven = home !== undefined && home !== '' && isAbsolute(home);
  const allowedRoots = [...(homeGiven ? [resolvedThroughLinks(home)] : []), resolvedThroughLinks(SHARED_TEMPORARY)];
  const protectedLocations = context.protectedLocations.map((location) => ({ ...location, real: resolvedThroughLinks(location.path) }));
  const prepared: string[] = [];
  for (const declared of managedPaths) {
    const expanded = declared === '~' || declared.startsWith('~/') ? (homeGiven ? join(home, declared.slice(1)) : undefined) : declared;
    if (expanded === undefined || !isAbsolute(expanded)) continue;
    const path = resolve(expanded);
    const real = resolvedThroughLinks(path);
    const named = real === path ? path : `${path}, ${real} with its links resolved`;
    if (!allowedRoots.some((root) => real.startsWith(`${root}/`))) {
      return refusal(declared, path, `${named} is not inside the constructed HOME (${homeGiven ? home : 'none'}) or ${SHARED_TEMPORARY}`);
    }
    const overlap = protectedLocations.find((location) => overlaps(real, location.real));
    if (overlap !== undefined) {
      const how = real === overlap.real ? 'is' : real.startsWith(`${overlap.real}/`) ? 'is inside' : 'holds';
      return refusal(declared, path, `${named} ${how} ${overlap.what} (${overlap.path})`);
    }
    const shared = homeGiven && path.startsWith(`${resolve(home)}/`) ? undefined : sharedTemporaryHazard(path);
    if (shared !== undefined) return refusal(declared, path, shared);
    try {
      await mkdir(path, { recursive: true, mode: 0o700 });
      // A file (a shell's startup file, say) is not the provider's configuration directory: not bound.
      if (statSync(path).isDirectory()) prepared.push(path);
    } catch {
      // Left out: the boundary profile records what was bound.
    }
  }
  return { kind: 'prepared', paths: prepared };
}

function refusal(declared: string, path: string, why: string): ManagedPathsPreparation {
  return {
    kind: 'refused',
    path,
    message: `the adapter's managed path ${JSON.stringify(declared)}: ${why}; bound writable inside the sandbox it would put that in the agent's reach, so the launch is refused (declare only the provider's own configuration, under ~ or ${SHARED_TEMPORARY})`,
  };
}

/**
 * /tmp is every user's: a link or a directory another user made there, on the way to a managed path,
 * is theirs to point anywhere the operator can write (a link at `/tmp/<provider>-daemon` to the
 * operator's `~/.ssh` would bind that writable). Each existing component below /tmp must be the
 * operator's own and not a link.
 */
function sharedTemporaryHazard(path: string): string | undefined {
  if (!path.startsWith(`${SHARED_TEMPORARY}/`)) return undefined;
  const uid = process.getuid?.();
  let at = SHARED_TEMPORARY;
  for (const component of path.slice(SHARED_TEMPORARY.length + 1).split('/')) {
    at = join(at, component);
    let info;
    try {
      info = lstatSync(at);
    } catch {
      return undefined;
    }
    if (info.isSymbolicLink()) return `${at} is a symbolic link in ${SHARED_TEMPORARY}, which any user can place`;
    if (uid !== undefined && info.uid !== uid) return `${at} belongs to uid ${info.uid}, not to this user, in ${SHARED_TEMPORARY}, which every user shares`;
  }
  return undefined;
}

/** Whether one path is the other or lies inside it, either way (`/` is inside nothing: a location at the root holds all). */
function overlaps(a: string, b: string): boolean {
  return a === b || (b !== '/' && a.startsWith(`${b}/`)) || (a !== '/' && b.startsWith(`${a}/`));
}

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

/**
 * What statecraft itself runs or reads outside the sandbox, as the operator, whichever target: a
 * managed path over one of these runs the agent's code outside the boundary. The directories on
 * PATH (where statecraft finds git and bwrap, and the child its programs) in the operator's and
 * the constructed environment; git's own configuration in both HOMEs (statecraft's git reads it:
 * a filter there is a command); node's installation and statecraft's program.
 */
export function supervisorProtectedLocations(environments: readonly Readonly<Record<string, string | undefined>>[]): ProtectedLocation[] {
  const locations: ProtectedLocation[] = [];
  for (const environment of environments) {
    for (const entry of (environment.PATH ?? '').split(':')) {
      if (isAbsolute(entry)) locations.push({ path: entry, what: 'a directory on PATH, where statecraft finds git and bwrap' });
    }
    const home = environment.HOME;
    if (home !== undefined && isAbsolute(home)) {
      locations.push({ path: join(home, '.gitconfig'), what: "git's configuration, which statecraft's own git reads" });
      locations.push({ path: join(home, '.config', 'git'), what: "git's configuration, which statecraft's own git reads" });
    }
    const xdg = environment.XDG_CONFIG_HOME;
    if (xdg !== undefined && isAbsolute(xdg)) locations.push({ path: join(xdg, 'git'), what: "git's configuration, which statecraft's own git reads" });
  }
  locations.push({ path: dirname(dirname(resolvedThroughLinks(process.execPath))), what: 'the node installation statecraft runs on' });
  const program = process.argv[1];
  if (program !== undefined && isAbsolute(program)) locations.push({ path: dirname(resolvedThroughLinks(program)), what: "statecraft's own program" });
  return locations;
}
