import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  establishBoundary,
  prepareManagedPaths,
  supervisorProtectedLocations,
  type ProtectedLocation,
  type BoundaryLaunch,
  type BoundaryRefusalReason,
  type EstablishedBoundary,
} from '@statecraft/environment';
import { noBoundaryRecord, type BoundaryRecord, type ProbeCheck } from '@statecraft/adapter';
import { rememberWritablePaths } from '@statecraft/records';
import { buildBoundaryProfile, type BoundaryChoice } from '@statecraft/environment';
import { bwrapVersionMemo, productHomeLayout } from '@statecraft/records';
import { targetsTheHomeNames } from './targets-the-home-names.js';

export type LaunchBoundary =
  | { kind: 'none'; record: Extract<BoundaryRecord, { mechanism: 'none' }> }
  | {
      kind: 'established';
      established: EstablishedBoundary;
      /** The request copy the adapter is pointed at: the product home stays out of its sight. */
      requestFile: string;
    }
  | { kind: 'refused'; reason: BoundaryRefusalReason | 'managed-path'; message: string; probe: ProbeCheck[] | 'not-run' };

export interface LaunchBoundaryRequest {
  choice: BoundaryChoice;
  productHome: string;
  workspace: string;
  /** Settles once git has added the worktree into the workspace's directory (bwrap-boundary.ts `workspaceReady`). */
  workspaceReady?: Promise<boolean>;
  temporaryDirectory: string;
  managedPaths: readonly string[];
  /** What the adapter's manifest says its provider only reads (`readablePaths`): exposed read-only. */
  readablePaths: readonly string[];
  /** The adapter's name, as its manifest gives it: whose managed paths these are. */
  adapter: string;
  /** The programs the launch runs (the adapter executable, a provider named with --provider): reachable though they lie in a hidden home. */
  programs: readonly string[];
  /** The target repository and its git directory, which the managed paths must not reach (managedPathsMustNotReach). */
  target: { path: string; commonDirectory: string };
  /** The constructed environment: bwrap is looked for on its PATH. */
  environment: Readonly<Record<string, string>>;
  /** The request, as it is kept in the product home. */
  requestText: string;
  source: Readonly<Record<string, string | undefined>>;
  /** Told the sandbox's launch and the request's file once its probe is started (establishBoundary's `onLaunch`). */
  onLaunch?: (launch: BoundaryLaunch, requestFile: string) => void;
}

/**
 * Sets up the protected evidence boundary for one launch, before the intent (R12): the request is
 * copied into the attempt's private TMPDIR (bound read-only there), the profile built, and the
 * sandbox probed. `--boundary none` is recorded with what it leaves open. A refusal here appends
 * nothing: the caller withdraws the workspace and answers exit 2.
 */
export async function prepareLaunchBoundary(request: LaunchBoundaryRequest): Promise<LaunchBoundary> {
  if (request.choice.kind === 'none') {
    return {
      kind: 'none',
      record: noBoundaryRecord(request.choice.chosenBy),
    };
  }
  const requestFile = join(request.temporaryDirectory, 'request.json');
  // Synchronous, as the TMPDIR is made: the probe is spawned next, beside git's checkout.
  writeFileSync(requestFile, request.requestText, { mode: 0o400 });
  // Checked, then made when absent, so they can be bound writable: the provider's configuration (R12).
  // The list they are checked against is read only when there are some: it looks up every program
  // statecraft runs and reads every target the home names, on the launch's critical path.
  const managed =
    request.managedPaths.length === 0
      ? { kind: 'prepared' as const, paths: [], links: [] }
      : await prepareManagedPaths(request.managedPaths, { home: request.environment.HOME, protectedLocations: managedPathsMustNotReach(request) });
  if (managed.kind === 'refused') return { kind: 'refused', reason: 'managed-path', message: managed.message, probe: 'not-run' };
  // Remembered before they are bound: a later run of any adapter refuses a target inside one.
  await rememberWritablePaths(productHomeLayout(request.productHome).writablePaths, request.adapter, managed.paths);
  const profile = buildBoundaryProfile({
    productHome: request.productHome,
    workspace: request.workspace,
    temporaryDirectory: request.temporaryDirectory,
    managedPaths: managed.paths,
    managedLinks: managed.links ?? [],
    environment: request.environment,
    handOver: [requestFile],
    source: request.source,
    gitDirectory: request.target.commonDirectory,
    exposed: request.choice.expose ?? [],
    adapterReadable: request.readablePaths,
    programs: request.programs,
  });
  const established = await establishBoundary({
    profile,
    environment: request.environment,
    workspace: request.workspace,
    ...(request.workspaceReady === undefined ? {} : { workspaceReady: request.workspaceReady }),
    ...(request.onLaunch === undefined ? {} : { onLaunch: (launch: BoundaryLaunch) => request.onLaunch?.(launch, requestFile) }),
    rememberVersion: bwrapVersionMemo(request.productHome),
  });
  if (established.kind === 'refused') return { kind: 'refused', reason: established.reason, message: established.message, probe: established.probe };
  return { kind: 'established', established: established.boundary, requestFile };
}

/**
 * What an adapter's managed paths must not reach on a launch (managed-paths.ts says why): the
 * records, the attempt's workspace (when one is made), the target repository and its git directory
 * (the git directory first: a path inside both is named by the more telling one), every other
 * repository the product home keeps records for and its git directories (statecraft's own git runs
 * there on its next run), and what statecraft itself runs or reads outside the sandbox. `env plan`
 * checks with the same list.
 */
export function managedPathsMustNotReach(launch: {
  productHome: string;
  workspace?: string;
  target: { path: string; commonDirectory: string };
  source: Readonly<Record<string, string | undefined>>;
  environment: Readonly<Record<string, string>>;
}): ProtectedLocation[] {
  return [
    { path: launch.productHome, what: 'the product home, where the records are kept' },
    ...(launch.workspace === undefined ? [] : [{ path: launch.workspace, what: "the attempt's workspace" }]),
    { path: launch.target.commonDirectory, what: "the target repository's git directory, whose configuration statecraft's own git obeys" },
    { path: launch.target.path, what: 'the target repository' },
    ...targetsTheHomeNames(launch.productHome),
    ...supervisorProtectedLocations([launch.source, launch.environment]),
  ];
}
