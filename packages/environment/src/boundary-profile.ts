import { existsSync } from 'node:fs';
import { expandHome } from './adapter-declarations.js';

/**
 * The protected evidence boundary's profile (R12): what the child's sandbox hides and what it may
 * write, built here beside the constructed environment and recorded with the posture. The
 * mechanism that applies it lives in the seam package (`supervise/bwrap-boundary.ts`), which this
 * package does not depend on: the shape below is the seam's `BoundaryProfile`, structurally.
 */

export type BoundaryPathRole =
  'product-home' | 'product-home-view' | 'workspace' | 'temporary-directory' | 'managed-path' | 'request' | 'test-bind' | 'authority' | 'agent-workspaces';

export interface BoundaryProfile {
  hidden: { path: string; role: BoundaryPathRole }[];
  writable: { path: string; role: BoundaryPathRole }[];
  readOnly: { path: string; role: BoundaryPathRole }[];
}

/**
 * Test-only: a path bound writable into the sandbox, read from the operator's environment. It
 * exists to prove that a profile the probe finds broken refuses the launch (issue 11); bound over
 * the product home it undoes the hiding. It is recorded in the profile (role `test-bind`), so a
 * record made with it says so and its digest differs.
 */
export const BOUNDARY_TEST_BIND_VARIABLE = 'STATECRAFT_BOUNDARY_TEST_BIND';

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
  /** The constructed environment, for `~`. */
  environment: Readonly<Record<string, string>>;
  /** Files handed to the child read-only (the request copy, inside the temporary directory). */
  handOver: readonly string[];
  /** The operator's environment: only the test-bind variable is read from it. */
  source: Readonly<Record<string, string | undefined>>;
}

/**
 * The profile for one attempt: the product home hidden; the workspace, the attempt's private
 * TMPDIR and the adapter's managed paths writable; the request read-only. Nothing else is
 * writable, and everything else stays readable (a named residual).
 */
export function buildBoundaryProfile(request: BoundaryProfileRequest): BoundaryProfile {
  const managed = request.managedPaths
    .map((path) => expandHome(path, request.environment))
    .filter((path): path is string => path !== undefined && path.startsWith('/') && existsSync(path))
    .map((path) => ({ path, role: 'managed-path' as const }));
  const testBind = request.source[BOUNDARY_TEST_BIND_VARIABLE];
  return {
    hidden: [{ path: request.productHome, role: 'product-home' }],
    writable: [
      { path: request.workspace, role: 'workspace' },
      { path: request.temporaryDirectory, role: 'temporary-directory' },
      ...managed,
      ...(testBind === undefined || testBind === '' ? [] : [{ path: testBind, role: 'test-bind' as const }]),
    ],
    readOnly: request.handOver.map((path) => ({ path, role: 'request' as const })),
  };
}

/** The operator's choice: the boundary (the default), or explicitly none. */
export type BoundaryChoice = { kind: 'bwrap' } | { kind: 'none'; chosenBy: '--boundary none' | 'STATECRAFT_BOUNDARY=none' };

export const BOUNDARY_VARIABLE = 'STATECRAFT_BOUNDARY';

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
