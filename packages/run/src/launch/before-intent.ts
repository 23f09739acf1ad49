import { tmpdir } from 'node:os';
import { makeDirectories } from '@statecraft/adapter';
import { ATTEMPT_TAG_VARIABLE } from '@statecraft/adapter';
import { attemptArtifactNames } from '@statecraft/records';
import type { BoundaryLaunch } from '@statecraft/environment';
import { constructEnvironment, gitIdentityBinding, writeGitIdentityFile, type GitIdentity } from '@statecraft/environment';
import { readOperatorGitIdentity } from '../workspace/read-operator-git-identity.js';
import type { RunPlan } from '../plan/plan-run.js';
import type { RunFailure } from '../refusal.js';
import { buildRequest } from './build-request.js';
import { failedPath } from '@statecraft/records';
import { withdrawIntentFiles, writeIntentFiles, type IntentFiles, type IntentFilesPlace } from './intent-files.js';
import { prepareLaunchBoundary, type LaunchBoundary } from './launch-boundary.js';
import { outcomeReservePath } from './outcome-reserve.js';
import { createAttemptTemporaryDirectory } from './temporary-directory.js';

/** What the adapter's launch is given besides what every launch shares: where it runs, and how. */
export interface AdapterStart {
  workspace: string;
  environment: Record<string, string>;
  requestFile: string;
  boundary?: BoundaryLaunch;
}

/** What is made before the intent besides the readings: the TMPDIR, the environment, the request and the boundary (R12). */
export type BeforeIntent =
  | {
      kind: 'made';
      temporaryDirectory: string;
      environment: ReturnType<typeof constructEnvironment>;
      request: ReturnType<typeof buildRequest>;
      boundary: LaunchBoundary;
      /** The request, the prompt and the outcome reserve, being written beside the boundary's probe. */
      files: Promise<IntentFiles>;
      filesPlace: IntentFilesPlace;
    }
  | { kind: 'failed'; failure: RunFailure; temporaryDirectory: string | undefined };

/**
 * Starts, as soon as the workspace's directory exists, what the intent needs besides the readings:
 * the attempt's TMPDIR (R5.5), its constructed environment (R5.1), the request naming the
 * workspace, and the boundary set up and probed in that very workspace (R12). `settled` answers
 * once it has ended (or at once, when the workspace was never made): never rejects.
 */
export function makeBeforeIntent(
  plan: RunPlan,
  attempt: { runId: string; number: number; attemptTag: string },
  launchAdapter: (start: AdapterStart) => void,
): { onDirectory: (workspace: string, added: Promise<boolean>) => void; settled: () => Promise<BeforeIntent> } {
  let making: Promise<BeforeIntent> | undefined;
  // Read while git makes the workspace: the boundary hides the home, and the identity is carried in.
  const identity = plan.boundary.kind === 'bwrap' ? readOperatorGitIdentity(plan.request.source) : Promise.resolve({});
  const notMade: BeforeIntent = {
    kind: 'failed',
    temporaryDirectory: undefined,
    failure: { kind: 'failed', stage: 'intent', path: plan.target.path, message: 'the workspace was not made; nothing was spawned', spawned: false },
  };
  return {
    onDirectory: (workspace, added) => {
      making = identity.then((known) => setUpBeforeIntent(plan, attempt, workspace, added, launchAdapter, known));
    },
    settled: () => making ?? Promise.resolve(notMade),
  };
}

async function setUpBeforeIntent(
  plan: RunPlan,
  attempt: { runId: string; number: number; attemptTag: string },
  workspace: string,
  added: Promise<boolean>,
  launchAdapter: (start: AdapterStart) => void,
  identity: GitIdentity,
): Promise<BeforeIntent> {
  const { runId, number, attemptTag } = attempt;
  let temporaryDirectory: string;
  let identityFile: string | undefined;
  try {
    temporaryDirectory = createAttemptTemporaryDirectory(runId, number);
    identityFile = writeGitIdentityFile(identity, temporaryDirectory);
  } catch (error) {
    const path = failedPath(error, tmpdir());
    const message = `cannot make the attempt's temporary directory in ${tmpdir()} (${(error as Error).message}); nothing was spawned, nothing appended`;
    return { kind: 'failed', temporaryDirectory: undefined, failure: { kind: 'failed', stage: 'intent', path, message, spawned: false, cause: error } };
  }
  const environment = constructEnvironment(plan.selection, {
    runId,
    attempt: number,
    temporaryDirectory,
    extra: [
      { name: ATTEMPT_TAG_VARIABLE, value: attemptTag, why: 'finds every process of the attempt, including ones that left its group' },
      ...gitIdentityBinding(identityFile),
    ],
    // With the boundary on, bwrap's PID namespace is the containment (R12), and the residuals follow it.
    containment: plan.boundary.kind === 'bwrap' ? 'bwrap' : plan.containment.mechanism,
  });
  const request = buildRequest(plan, { runId, number, workspace, baseCommit: plan.baseCommit }, new Date());
  const requestText = `${JSON.stringify(request, null, 2)}\n`;
  const attemptDirectory = plan.paths.attempt(runId, number);
  const filesPlace: IntentFilesPlace = {
    targetDirectory: plan.paths.directory,
    attemptDirectory,
    names: attemptArtifactNames(runId, number),
    reserve: outcomeReservePath(attemptDirectory),
  };
  // Started now, so the fsyncs run while the boundary is probed; the intent waits for them (R8.4).
  const files = writeIntentFiles(filesPlace, { request: requestText, prompt: plan.request.prompt });
  try {
    const boundary = await prepareLaunchBoundary({
      choice: plan.boundary,
      productHome: plan.request.home,
      workspace,
      workspaceReady: added,
      temporaryDirectory,
      managedPaths: plan.manifest.managedPaths ?? [],
      readablePaths: plan.manifest.readablePaths ?? [],
      adapter: plan.manifest.name,
      programs: [plan.adapter.path, ...(plan.request.provider === undefined ? [] : [plan.request.provider])],
      target: plan.target,
      environment: environment.variables,
      requestText,
      source: plan.request.source,
      // The adapter's sandbox, in the very profile the probe checks, set up beside the probe to wait
      // at its gate. Its evidence files go in the attempt's directory, which the intent's files may
      // not have made yet: made here first; when it cannot be, nothing is set up ahead (the intent's
      // files then fail naming it, and the adapter is never started).
      onLaunch: (launch, requestFile) => {
        try {
          makeDirectories(filesPlace.attemptDirectory, 0o700);
        } catch {
          return;
        }
        launchAdapter({ workspace, environment: environment.variables, requestFile, boundary: launch });
      },
    });
    return { kind: 'made', temporaryDirectory, environment, request, boundary, files, filesPlace };
  } catch (error) {
    await withdrawIntentFiles(filesPlace, files);
    const message = `cannot set up the evidence boundary (${(error as Error).message}); nothing was spawned`;
    // Named by the path that failed when the error names one (a managed path that cannot be made).
    const path = failedPath(error, plan.request.home);
    return { kind: 'failed', temporaryDirectory, failure: { kind: 'failed', stage: 'intent', path, message, spawned: false, cause: error } };
  }
}
