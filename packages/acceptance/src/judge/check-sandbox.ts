import { ATTEMPT_TAG_VARIABLE, noBoundaryRecord, type BoundaryRecord } from '@statecraft/adapter';
import { chooseContainment, establishBoundary, type EstablishedBoundary } from '@statecraft/environment';
import { newAttemptTag } from '@statecraft/records';
import {
  buildBoundaryProfile,
  constructEnvironment,
  gitIdentityBinding,
  writeGitIdentityFile,
  selectPassedNames,
  type BoundaryChoice,
  type GitIdentity,
} from '@statecraft/environment';
import { bwrapVersionMemo } from '@statecraft/records';
import type { EnvironmentRecord } from '@statecraft/adapter';
import { readOperatorGitIdentity } from '@statecraft/run';
import { emptyCheckTemporaryDirectory, makeCheckTemporaryDirectory, removeCheckTemporaryDirectory } from './check-temporary-directory.js';

/** What every check of one suite runs with: the constructed environment, the attempt tag and the boundary. */
export interface CheckSandbox {
  environment: { variables: Record<string, string>; record: EnvironmentRecord };
  attemptTag: string;
  /** The checks' private TMPDIR, writable inside the boundary and removed after the suite. */
  temporaryDirectory: string;
  /** The operator's git identity, written into the TMPDIR again each time it is emptied between checks. */
  gitIdentity: GitIdentity;
  /** `undefined` under `--boundary none`: the checks then run under the supervisor's own containment. */
  established: EstablishedBoundary | undefined;
  boundary: BoundaryRecord;
}

export type CheckSandboxSetup = { kind: 'ready'; sandbox: CheckSandbox } | { kind: 'refused'; reason: 'environment' | 'boundary'; message: string };

export interface CheckSandboxRequest {
  runId: string;
  attempt: number;
  /** The fresh worktree of the candidate: writable inside the boundary, the checks' working directory. */
  worktree: string;
  /** Settles true once git has added the worktree into its directory: the probe's checks wait for it (bwrap-boundary.ts `workspaceReady`). */
  worktreeReady?: Promise<boolean>;
  productHome: string;
  choice: BoundaryChoice;
  /** The target's git directory, which the checks' git reads: bound back read-only when a hidden home holds it. */
  gitDirectory?: string;
  /** The operator's environment: only allowlisted names are read from it (R5.1). */
  source: Readonly<Record<string, string | undefined>>;
}

/**
 * Prepares what the suite's checks run under (R13.3, R12), as an adapter's launch does: the
 * environment constructed from the allowlist (never a credential family), and the protected
 * evidence boundary — the product home hidden, only the candidate's worktree and a private TMPDIR
 * writable — built and probed once for the suite; each check is then its own sandbox of that
 * profile. A boundary that cannot be established refuses (fail closed): no check runs.
 */
export async function prepareCheckSandbox(request: CheckSandboxRequest): Promise<CheckSandboxSetup> {
  const selection = selectPassedNames({ source: request.source, adapterPass: [], operatorPass: [] });
  if (selection.kind === 'refused') return { kind: 'refused', reason: 'environment', message: `${selection.message}; no check was run` };
  // Inside the boundary the home is hidden: the operator's git identity is carried in, for checks that commit.
  const identity = request.choice.kind === 'bwrap' ? await readOperatorGitIdentity(request.source) : {};
  // Synchronous up to the probe's spawn, which runs beside git's checkout of the worktree.
  const temporaryDirectory = makeCheckTemporaryDirectory(request.worktree);
  const attemptTag = newAttemptTag(request.runId, request.attempt);
  const environment = constructEnvironment(selection, {
    runId: request.runId,
    attempt: request.attempt,
    temporaryDirectory,
    extra: [
      { name: ATTEMPT_TAG_VARIABLE, value: attemptTag, why: 'finds every process of the checks, including ones that left their group' },
      ...gitIdentityBinding(writeGitIdentityFile(identity, temporaryDirectory)),
    ],
    // With the boundary on, bwrap's PID namespace is the containment (R12); else the supervisor's choice, probed once and cached.
    containment: request.choice.kind === 'bwrap' ? 'bwrap' : (await chooseContainment('auto')).containment.mechanism,
  });
  const ready = (established: EstablishedBoundary | undefined, boundary: BoundaryRecord): CheckSandboxSetup => ({
    kind: 'ready',
    sandbox: { environment, attemptTag, temporaryDirectory, gitIdentity: identity, established, boundary },
  });
  if (request.choice.kind === 'none') {
    return ready(undefined, noBoundaryRecord(request.choice.chosenBy));
  }
  const profile = buildBoundaryProfile({
    productHome: request.productHome,
    workspace: request.worktree,
    temporaryDirectory,
    managedPaths: [],
    environment: environment.variables,
    handOver: [],
    source: request.source,
    ...(request.gitDirectory === undefined ? {} : { gitDirectory: request.gitDirectory }),
    exposed: request.choice.expose ?? [],
  });
  const established = await establishBoundary({
    // /proc read-only: no process of a check writes another's memory, bwrap's own included, through
    // which the check's exit status leaves the sandbox (seccomp-filter.ts denies the other ways).
    profile: { ...profile, checks: true },
    environment: environment.variables,
    workspace: request.worktree,
    ...(request.worktreeReady === undefined ? {} : { workspaceReady: request.worktreeReady }),
    rememberVersion: bwrapVersionMemo(request.productHome),
  }).catch((error: unknown) => ({ kind: 'refused', message: `the protected evidence boundary could not be set up (${(error as Error).message})` }) as const);
  if (established.kind === 'refused') {
    await removeCheckTemporaryDirectory(temporaryDirectory);
    return { kind: 'refused', reason: 'boundary', message: `${established.message}; no check was run` };
  }
  return ready(established.boundary, established.boundary.record);
}

/**
 * The checks' TMPDIR emptied for the next check, and what the sandbox put there written again (the
 * operator's git identity, which GIT_CONFIG_GLOBAL names): true when it holds exactly that.
 */
export async function emptyForNextCheck(sandbox: CheckSandbox): Promise<boolean> {
  if (!(await emptyCheckTemporaryDirectory(sandbox.temporaryDirectory))) return false;
  try {
    writeGitIdentityFile(sandbox.gitIdentity, sandbox.temporaryDirectory);
    return true;
  } catch {
    return false;
  }
}
