import { lstatSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { makeDirectories } from '@statecraft/adapter';
import { enclosingGitDirectory, type EnclosingGitDirectory } from './enclosing-git-directory.js';
import { resolvedThroughLinks } from './resolved-through-links.js';

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

export type ManagedPathsPreparation =
  | {
      kind: 'prepared';
      paths: string[];
      /** Each prepared path reached through a link, as declared (`path`) and where it leads (`target`, in `paths`): a hidden home shows the link again. */
      links?: { path: string; target: string }[];
    }
  | { kind: 'refused'; path: string; message: string };

/** Where a managed path may lie: strictly inside the constructed HOME (the provider's configuration), or inside /tmp (its sockets). */
const SHARED_TEMPORARY = '/tmp';

/**
 * The adapter's declared managed paths (R10.6), each checked, then made (0700) when absent, so the
 * evidence boundary can bind it writable (R12: the provider's configuration is writable): a path
 * that does not exist cannot be bound, and the provider inside the sandbox could not make it on the
 * read-only root. `~` is the constructed HOME; a `~` path without one, or a relative path, is left
 * out (the provider then fails visibly inside, R5.4), as is one that stands there and is not a
 * directory. One that cannot be made (under /proc or /sys, through a link that leads there, below a
 * file, on a read-only mount) is thrown, naming it (makeManagedPath): the machine's fault, exit 4.
 * Each is answered with its links resolved: what was checked is what the sandbox binds.
 *
 * Every declaration is checked before any is made, on the path with its links resolved, and again
 * once made: a managed path must lie strictly inside the constructed HOME (a `~` path may not leave
 * it; a HOME of `/` is none) or /tmp (there, down to HOME when HOME lies in it, through no link and
 * nothing another user owns, both as given and where its links lead), must not overlap a protected
 * location (every target the product home names among them), and must not be or lie inside a git
 * directory (enclosing-git-directory.ts; what it holds is not walked). A declaration that fails,
 * or that cannot be checked, is refused, naming it: the launch is refused (R12), never run with the
 * path quietly dropped, since the adapter asked for it (decision 0063: the repository's `.git`
 * declared managed — or another repository's — would let the agent set a git filter that
 * statecraft's own git then runs, as the operator, outside the sandbox; a directory on PATH, or the
 * one a program on PATH links to, would let it plant a `bwrap` or a `git` that every later run
 * takes for its own; a path in the product home would be made there by statecraft itself).
 */
export function prepareManagedPaths(
  managedPaths: readonly string[],
  context: { home: string | undefined; protectedLocations: readonly ProtectedLocation[] },
): Promise<ManagedPathsPreparation> {
  // Made synchronously, one component at a time; a path that cannot be made rejects.
  return new Promise((resolve) => resolve(prepareManagedPathsNow(managedPaths, context)));
}

function prepareManagedPathsNow(
  managedPaths: readonly string[],
  context: { home: string | undefined; protectedLocations: readonly ProtectedLocation[] },
): ManagedPathsPreparation {
  const checks = pathChecks(context);
  // Every declaration is checked before any is made: a refusal leaves nothing of the launch behind.
  const checking = checkDeclarations(managedPaths, checks);
  if (checking.kind === 'refused') return checking;
  const prepared: string[] = [];
  const links: { path: string; target: string }[] = [];
  for (const { declared, path } of checking.paths) {
    // What stands there and is not a directory (a shell's startup file, say) is not the provider's
    // configuration directory: left out, and the boundary profile records what was bound.
    if (standsAsNonDirectory(path)) continue;
    makeManagedPath(declared, path);
    // Checked again once made: a component that was missing at the check may have been placed in
    // /tmp by another user since; the operator's own directory there is then no one else's to swap.
    // No git directory is looked for again: the ancestors were read, and what was made is empty.
    const real = resolvedThroughLinks(path);
    const problem = managedPathProblem(path, real, isFromHome(declared), checks, false);
    if (problem !== undefined) return refusal(declared, path, problem);
    // What was checked is what is bound: the path with its links resolved, so no link on the way
    // (a HOME entry leading into /tmp, say) can be turned elsewhere between the check and the bind.
    // A file (a shell's startup file, say) is not the provider's configuration directory: not bound.
    if (isDirectory(real)) {
      prepared.push(real);
      if (real !== path) links.push({ path, target: real });
    }
  }
  return { kind: 'prepared', paths: prepared, links };
}

/** Whether something other than a directory stands at the path (links followed, as the bind follows them). */
function standsAsNonDirectory(path: string): boolean {
  try {
    const found = statSync(path, { throwIfNoEntry: false });
    return found !== undefined && !found.isDirectory();
  } catch {
    return false;
  }
}

/**
 * Makes one managed path one component at a time (make-directories.ts): node's recursive mkdir
 * retries for ever where the file system answers ENOENT under a directory that exists (/proc, and
 * so a HOME there or a link leading there), where no signal handler runs. The first refusal is
 * thrown, naming the declaration, the path and the component, with the system's code and the
 * managed path as its `path`: the launch fails at once, nothing spawned.
 */
function makeManagedPath(declared: string, path: string): void {
  try {
    makeDirectories(path, 0o700);
  } catch (error) {
    const failure = error as NodeJS.ErrnoException;
    const at = failure.path !== undefined && failure.path !== path ? ` (at ${failure.path})` : '';
    throw Object.assign(
      new Error(
        `the adapter's managed path ${JSON.stringify(declared)}: ${path} cannot be made${at}: ${failure.code ?? failure.message}; nothing can be bound there, so the launch is not made`,
        { cause: error },
      ),
      { code: failure.code ?? 'EIO', path },
    );
  }
}

interface PathChecks {
  /** The constructed HOME, resolved, and with its links resolved; undefined when none is given, or when it is `/`. */
  home: { path: string; real: string } | undefined;
  /** The constructed HOME is `/` (a container run as `--user N` with no home): it would hold every path, so it is none. */
  homeIsRoot: boolean;
  protectedLocations: (ProtectedLocation & { real: string })[];
}

/**
 * The check alone, making nothing: whether every declaration may be bound writable, as the launch
 * would judge it (prepareManagedPaths). `env plan` answers with it, so a plan never reads fine where
 * the run would be refused; a path that does not exist yet is judged as it would be made.
 */
export function checkManagedPaths(
  managedPaths: readonly string[],
  context: { home: string | undefined; protectedLocations: readonly ProtectedLocation[] },
): { kind: 'bindable'; paths: string[] } | Extract<ManagedPathsPreparation, { kind: 'refused' }> {
  const checking = checkDeclarations(managedPaths, pathChecks(context));
  return checking.kind === 'refused' ? checking : { kind: 'bindable', paths: checking.paths.map(({ path }) => path) };
}

function pathChecks(context: { home: string | undefined; protectedLocations: readonly ProtectedLocation[] }): PathChecks {
  const home = constructedHome(context.home);
  return {
    home: home === undefined ? undefined : { path: home, real: resolvedThroughLinks(home) },
    homeIsRoot: isRootHome(context.home),
    protectedLocations: context.protectedLocations.map((location) => ({ ...location, real: resolvedThroughLinks(location.path) })),
  };
}

/** A managed path as the adapter declared it, and as a launch expands it (absolute, normalised). */
export interface ExpandedManagedPath {
  declared: string;
  path: string;
}

/**
 * The declarations a launch would bind, expanded as it expands them: `~` is the constructed HOME
 * (`home`); a relative one, or a `~` one without a HOME, is left out (nothing is bound for it).
 * `run` refuses, at planning, a target that lies in one of them (plan/target-outside-managed-paths.ts).
 */
export function expandManagedPaths(managedPaths: readonly string[], home: string | undefined): ExpandedManagedPath[] {
  return expandDeclarations(managedPaths, constructedHome(home));
}

function expandDeclarations(managedPaths: readonly string[], home: string | undefined): ExpandedManagedPath[] {
  return managedPaths.flatMap((declared) => {
    const expanded = isFromHome(declared) ? (home === undefined ? undefined : join(home, declared.slice(1))) : declared;
    return expanded === undefined || !isAbsolute(expanded) ? [] : [{ declared, path: resolve(expanded) }];
  });
}

function isFromHome(declared: string): boolean {
  return declared === '~' || declared.startsWith('~/');
}

/**
 * The constructed HOME as managed paths read it: absolute and normalised, or undefined when there
 * is none. A HOME of `/` (or one that leads there) is none: "strictly inside HOME" would then
 * restrict nothing, and `~/etc/cron.d` would be bound writable.
 */
function constructedHome(home: string | undefined): string | undefined {
  return home !== undefined && home !== '' && isAbsolute(home) && !isRootHome(home) ? resolve(home) : undefined;
}

function isRootHome(home: string | undefined): boolean {
  return home !== undefined && isAbsolute(home) && resolvedThroughLinks(home) === '/';
}

/** How a refusal names the HOME a path was judged against. */
function homeInWords(checks: PathChecks): string {
  return checks.home?.path ?? (checks.homeIsRoot ? 'none: HOME is /' : 'none');
}

/** Each declaration expanded (expandManagedPaths) and checked, or the first refused. */
function checkDeclarations(
  managedPaths: readonly string[],
  checks: PathChecks,
): { kind: 'checked'; paths: ExpandedManagedPath[] } | Extract<ManagedPathsPreparation, { kind: 'refused' }> {
  // Refused, not left out as a `~` path without a HOME is: the HOME is there, and would hold every path.
  const fromRootHome = checks.homeIsRoot ? managedPaths.find(isFromHome) : undefined;
  if (fromRootHome !== undefined) {
    const why = `the constructed HOME is /, which holds every path, so a \`~\` path could name any place on the machine (give the provider a HOME of its own)`;
    return refusal(fromRootHome, join('/', fromRootHome.slice(1)), { kind: 'reach', why });
  }
  const paths = expandDeclarations(managedPaths, checks.home?.path);
  for (const { declared, path } of paths) {
    const problem = managedPathProblem(path, resolvedThroughLinks(path), isFromHome(declared), checks, true);
    if (problem !== undefined) return refusal(declared, path, problem);
  }
  return { kind: 'checked', paths };
}

/** Why one managed path may not be bound writable: `reach`, what it would put in the agent's reach; `unchecked`, what could not be checked. */
type PathProblem = { kind: 'reach' | 'unchecked'; why: string };

/**
 * Why one managed path (`real`: with its links resolved) may not be bound writable, or undefined
 * when it may (prepareManagedPaths says the rules). `lookForGitDirectories`: whether to read it and
 * its ancestors for a git directory, which the check after making it need not do again.
 */
function managedPathProblem(path: string, real: string, fromHome: boolean, checks: PathChecks, lookForGitDirectories: boolean): PathProblem | undefined {
  const { home, protectedLocations } = checks;
  const named = real === path ? path : `${path}, ${real} with its links resolved`;
  const inHome = home !== undefined && isInside(path, home.path);
  const reach = (why: string): PathProblem => ({ kind: 'reach', why });
  // `~/../x` leaves HOME: a `~` path is the provider's configuration only while it stays there.
  if (fromHome && !inHome) return reach(`${path} is not inside the constructed HOME (${homeInWords(checks)})`);
  const allowedRoots = [...(home === undefined ? [] : [home.real]), resolvedThroughLinks(SHARED_TEMPORARY)];
  if (!allowedRoots.some((root) => isInside(real, root)))
    return reach(`${named} is not inside the constructed HOME (${homeInWords(checks)}) or ${SHARED_TEMPORARY}`);
  const overlap = protectedLocations.find((location) => overlaps(real, location.real));
  if (overlap !== undefined) {
    const how = real === overlap.real ? 'is' : isInside(real, overlap.real) ? 'is inside' : 'holds';
    return reach(`${named} ${how} ${overlap.what} (${overlap.path})`);
  }
  // In /tmp, both the path as given and where it leads: a HOME entry that links into a directory
  // another user owns there is theirs to turn elsewhere.
  const realInHome = home !== undefined && isInside(real, home.real);
  const hazard = sharedTemporaryHazard(path, home?.path) ?? sharedTemporaryHazard(real, home?.real);
  if (hazard !== undefined) return reach(hazard);
  if (!lookForGitDirectories) return undefined;
  // Looked for up to the place the path lies in: HOME (looked at, the operator's own) or /tmp (not: every user's).
  const temporary = resolvedThroughLinks(SHARED_TEMPORARY);
  const root = home !== undefined && realInHome ? home.real : temporary;
  return gitDirectoryProblem(named, enclosingGitDirectory(real, root, root !== temporary));
}

/** A git directory a managed path is or lies inside, in words (enclosing-git-directory.ts says why none may be). */
function gitDirectoryProblem(named: string, found: EnclosingGitDirectory): PathProblem | undefined {
  switch (found.kind) {
    case 'none':
      return undefined;
    case 'git-directory':
      return {
        kind: 'reach',
        why: `${named} ${found.relation} the git directory ${found.at}, whose configuration a git run there obeys, statecraft's own included`,
      };
    case 'unreadable':
      return { kind: 'unchecked', why: `${found.directory} cannot be read (${found.code}) to check that it is not a git directory, nor inside one` };
  }
}

/** Whether the path is a directory now (links followed, as the bind follows them); false for what cannot be read. */
function isDirectory(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}

/** Strictly inside: `/` holds every other path. */
function isInside(path: string, root: string): boolean {
  return root === '/' ? path !== '/' : path.startsWith(`${root}/`);
}

function refusal(declared: string, path: string, problem: PathProblem): Extract<ManagedPathsPreparation, { kind: 'refused' }> {
  const then =
    problem.kind === 'reach'
      ? `bound writable inside the sandbox it would put that in the agent's reach, so the launch is refused (declare only the provider's own configuration, under ~ or ${SHARED_TEMPORARY})`
      : `a path that cannot be checked is not bound writable, so the launch is refused (declare a narrower path: the provider's own configuration, under ~ or ${SHARED_TEMPORARY})`;
  return { kind: 'refused', path, message: `the adapter's managed path ${JSON.stringify(declared)}: ${problem.why}; ${then}` };
}

/**
 * /tmp is every user's: a link or a directory another user made there, on the way to a managed path,
 * is theirs to point anywhere the operator can write (a link at `/tmp/<provider>-daemon` to the
 * operator's `~/.ssh` would bind that writable). Each existing component below /tmp must be the
 * operator's own (or root's, who can write anything anyway) and not a link, down to the HOME the
 * path lies in, when that lies in /tmp: what is inside HOME is the operator's. A HOME of /tmp
 * itself is no such place (`~/x` is then anyone's `/tmp/x`).
 */
function sharedTemporaryHazard(path: string, home: string | undefined): string | undefined {
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
    if (uid !== undefined && info.uid !== uid && info.uid !== 0)
      return `${at} belongs to uid ${info.uid}, not to this user, in ${SHARED_TEMPORARY}, which every user shares`;
    if (at === home) return undefined;
  }
  return undefined;
}

/**
 * Whether one path is the other or lies inside it, either way. A protected `/` is inside nothing
 * (it holds everything): it protects only itself.
 */
function overlaps(a: string, b: string): boolean {
  return a === b || (b !== '/' && isInside(a, b)) || (a !== '/' && isInside(b, a));
}
