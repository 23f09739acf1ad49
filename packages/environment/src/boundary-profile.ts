import { existsSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { homesToHide, isSameOrBelow, pathEntriesInside, programHoldersInside, type HiddenHome } from './homes-to-hide.js';
import type { BoundaryPathRole } from '@statecraft/adapter';
import { expandHome } from './adapter-declarations.js';

/**
 * The protected evidence boundary's profile (R12): what the child's sandbox hides and what it may
 * write, built here beside the constructed environment and recorded with the posture. The
 * mechanism that applies it lives in the seam package (`supervise/bwrap-boundary.ts`); the shape
 * below is the seam's `BoundaryProfile`, and its roles are the seam's own (`BoundaryPathRoleSchema`),
 * so a role is named in one place.
 */

export type { BoundaryPathRole };

export interface BoundaryProfile {
  hidden: { path: string; role: BoundaryPathRole }[];
  writable: { path: string; role: BoundaryPathRole }[];
  readOnly: { path: string; role: BoundaryPathRole }[];
  links?: { path: string; target: string; role: BoundaryPathRole }[];
}

/**
 * Test-only: a path bound writable into the sandbox, read from the operator's environment. It
 * exists to prove that a profile the probe finds broken refuses the launch; bound over
 * the product home it undoes the hiding. It is recorded in the profile (role `test-bind`), so a
 * record made with it says so and its digest differs.
 */
const BOUNDARY_TEST_BIND_VARIABLE = 'STATECRAFT_BOUNDARY_TEST_BIND';

export interface BoundaryProfileRequest {
  productHome: string;
  workspace: string;
  temporaryDirectory: string;
  /**
   * The adapter's managed paths as the seam checked and made them (`prepareManagedPaths`, which
   * answers each with its links resolved): bound writable as given (`~` is the constructed HOME);
   * those that do not exist are left out.
   */
  managedPaths: readonly string[];
  /** Managed paths declared through a link (`prepareManagedPaths`' `links`): made again inside a hidden home, leading where they are bound. */
  managedLinks?: readonly { path: string; target: string }[];
  /** The constructed environment, for `~`. */
  environment: Readonly<Record<string, string>>;
  /** Files handed to the child read-only (the request copy, inside the temporary directory). */
  handOver: readonly string[];
  /** The operator's environment: its HOME (the home hidden) and the test-bind variable are read from it. */
  source: Readonly<Record<string, string | undefined>>;
  /** The target repository's git directory, which the workspace's git reads: read-only, as a home over it would hide it. */
  gitDirectory?: string;
  /** Paths the operator exposes read-only (`--expose`), absolute and checked to exist. */
  exposed?: readonly string[];
  /** Paths (`~` is the constructed HOME) the adapter's provider reads (its manifest's `readablePaths`): exposed read-only when they exist. */
  adapterReadable?: readonly string[];
  /** The programs the launch runs (the adapter executable, a provider named with --provider): what holds them in a hidden home is exposed read-only. */
  programs?: readonly string[];
}

/**
 * The profile for one attempt: the homes and the product home hidden; the workspace, the
 * attempt's private TMPDIR and the adapter's managed paths writable; the request, what the operator
 * and the adapter expose, and the PATH's entries inside a home read-only. Nothing else is
 * writable, and the rest of the root file system stays readable (a named residual).
 */
export function buildBoundaryProfile(request: BoundaryProfileRequest): BoundaryProfile {
  const existing = (paths: readonly string[]) =>
    paths.map((path) => expandHome(path, request.environment)).filter((path): path is string => path !== undefined && path.startsWith('/') && existsSync(path));
  const managed = existing(request.managedPaths).map((path) => ({ path, role: 'managed-path' as const }));
  const launchHomes = homesOfLaunch({
    home: request.source.HOME,
    path: request.environment.PATH,
    programs: request.programs ?? [],
    productHome: request.productHome,
  });
  const homes = launchHomes.hidden;
  const testBind = request.source[BOUNDARY_TEST_BIND_VARIABLE];
  const links = (request.managedLinks ?? [])
    .filter(
      (link) => managed.some((entry) => entry.path === link.target) && homes.some((home) => isSameOrBelow(link.path, home.path) && link.path !== home.path),
    )
    .map((link) => ({ ...link, role: 'managed-path' as const }));
  return {
    ...(links.length === 0 ? {} : { links }),
    hidden: [...homes, { path: request.productHome, role: 'product-home' }],
    writable: [
      { path: request.workspace, role: 'workspace' },
      { path: request.temporaryDirectory, role: 'temporary-directory' },
      ...managed,
      ...(testBind === undefined || testBind === '' ? [] : [{ path: testBind, role: 'test-bind' as const }]),
    ],
    readOnly: [
      ...launchHomes.programs.map((path) => ({ path, role: 'program' as const })),
      ...request.handOver.map((path) => ({ path, role: 'request' as const })),
      ...(request.exposed ?? []).map((path) => ({ path, role: 'operator-exposed' as const })),
      ...existing(request.adapterReadable ?? []).map((path) => ({ path, role: 'adapter-exposed' as const })),
      ...(request.gitDirectory === undefined || !homes.some((home) => isSameOrBelow(request.gitDirectory ?? '', home.path))
        ? []
        : [{ path: request.gitDirectory, role: 'git-directory' as const }]),
      ...launchHomes.pathEntries.map((path) => ({ path, role: 'path-entry' as const })),
    ],
  };
}

/** What of the homes a launch hides, and what of them it binds back read-only so that it still runs. */
export interface LaunchHomes {
  /** The homes hidden under an empty tmpfs (homes-to-hide.ts): the operator's, /root, each one of /home. */
  hidden: HiddenHome[];
  /** What holds a program the launch runs, inside a hidden home (programHoldersInside). */
  programs: string[];
  /** The PATH's entries inside a hidden home, the product home's never (pathEntriesInside). */
  pathEntries: string[];
}

/**
 * The homes of one launch, read once for every launch that hides them: `run`'s profile
 * (buildBoundaryProfile) and the negative suite's, whose caller hands them to the seam
 * (suiteHomes), so that `qualify` hides from the adapter under test what `run` hides from it.
 */
export function homesOfLaunch(request: { home: string | undefined; path: string | undefined; programs: readonly string[]; productHome: string }): LaunchHomes {
  const hidden = homesToHide(request.home);
  return {
    hidden,
    programs: programHoldersInside(hidden, request.programs, request.productHome),
    pathEntries: pathEntriesInside(hidden, request.path).filter((path) => path !== request.productHome && !path.startsWith(`${request.productHome}/`)),
  };
}

/**
 * The homes as the negative suite's profile takes them (`runNegativeSuite`'s `boundary.homes`):
 * hidden as `run` hides them, with the programs the suite launches and the PATH's entries inside
 * one bound back read-only, under the roles `run` records.
 */
export function suiteHomes(request: Parameters<typeof homesOfLaunch>[0]): {
  hidden: { path: string; role: BoundaryPathRole }[];
  readOnly: { path: string; role: BoundaryPathRole }[];
} {
  const homes = homesOfLaunch(request);
  return {
    hidden: homes.hidden.map(({ path, role }) => ({ path, role })),
    readOnly: [
      ...homes.programs.map((path) => ({ path, role: 'program' as const })),
      ...homes.pathEntries.map((path) => ({ path, role: 'path-entry' as const })),
    ],
  };
}

/** The operator's choice: the boundary (the default), with what `--expose` shows of the hidden homes, or explicitly none. */
export type BoundaryChoice = { kind: 'bwrap'; expose?: readonly string[] } | { kind: 'none'; chosenBy: '--boundary none' | 'STATECRAFT_BOUNDARY=none' };

const BOUNDARY_VARIABLE = 'STATECRAFT_BOUNDARY';

/**
 * Reads `--boundary` and `STATECRAFT_BOUNDARY` strictly (the flag wins): a misspelt value silently
 * read as "on" or "off" would misstate the posture. Answers the choice, or what is wrong.
 */
export function readBoundaryChoice(
  flag: string | undefined,
  source: Readonly<Record<string, string | undefined>>,
): BoundaryChoice | { kind: 'invalid'; message: string } {
  if (flag !== undefined) {
    if (flag === 'none') return { kind: 'none', chosenBy: '--boundary none' };
    if (flag === 'bwrap') return { kind: 'bwrap' };
    return { kind: 'invalid', message: `--boundary ${JSON.stringify(flag)}: not understood; use bwrap (the default) or none` };
  }
  const value = source[BOUNDARY_VARIABLE];
  if (value === undefined || value === '' || value === 'bwrap') return { kind: 'bwrap' };
  if (value === 'none') return { kind: 'none', chosenBy: 'STATECRAFT_BOUNDARY=none' };
  return { kind: 'invalid', message: `${BOUNDARY_VARIABLE}=${value}: not understood; use bwrap (the default) or none` };
}

/**
 * The `--expose` paths, each made absolute against the working directory (its links left for bwrap
 * to follow): refused when one does not exist, when the boundary is off (nothing is hidden to
 * expose), or when one reaches the product home — it would lay the records back over their hiding.
 */
export function readExposedPaths(
  given: readonly string[],
  choice: BoundaryChoice,
  productHome: string,
): { kind: 'read'; choice: BoundaryChoice } | { kind: 'invalid'; message: string } {
  if (given.length === 0) return { kind: 'read', choice };
  if (choice.kind === 'none')
    return { kind: 'invalid', message: `--expose ${given[0] ?? ''}: nothing is hidden under ${choice.chosenBy}, so there is nothing to expose` };
  const home = realOrSelf(productHome);
  const paths: string[] = [];
  for (const path of given) {
    const absolute = resolve(path);
    if (!existsSync(absolute)) return { kind: 'invalid', message: `--expose ${path}: ${absolute} does not exist` };
    const real = realpathSync(absolute);
    if (isSameOrBelow(real, home) || isSameOrBelow(home, real))
      return { kind: 'invalid', message: `--expose ${path}: ${real} reaches the product home ${home}, which the boundary keeps hidden` };
    if (!paths.includes(absolute)) paths.push(absolute);
  }
  return { kind: 'read', choice: { ...choice, expose: paths } };
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
