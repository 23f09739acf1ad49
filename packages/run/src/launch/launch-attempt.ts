import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { hostname } from 'node:os';
import {
  ATTEMPT_TAG_VARIABLE,
  classifyAttempt,
  findAttemptProcesses,
  superviseAdapter,
  type AttemptResult,
  type EstablishedBoundary,
  type ProtocolEvent,
  type SupervisedAttempt,
} from '@statecraft/adapter';
import { constructEnvironment } from '@statecraft/environment';
import { appendRecord, type AppendedRecord, type ChainPosition } from '../chain/append-record.js';
import { attemptArtifactNames } from '../chain/chain-paths.js';
import { openChainSummaries, type ChainSummary } from '../chain/chain-summary.js';
import type { ChainOpening } from '../chain/open-chain.js';
import type { IntentRecord, OutcomeRecord } from '../chain/record-schemas.js';
import { writeFileDurably } from '../durable-write.js';
import { acquireRepositoryLock, type LockHolder } from '../lock/repository-lock.js';
import type { RunPlan } from '../plan/plan-run.js';
import { refused, type RunFailure, type RunRefusal } from '../refusal.js';
import { newRunId } from '../run-id.js';
import { prepareWorkspace, readWorkspaceHead, withdrawWorkspace, type PreparedWorkspace } from '../workspace/prepare-workspace.js';
import { checkCoverageAtLaunch, type LaunchCoverage } from '../coverage/check-launch-coverage.js';
import { keepArtifact } from './artifacts.js';
import { buildRequest } from './build-request.js';
import { plannedPosture } from './compose-posture.js';
import { createAttemptTemporaryDirectory, removeAttemptTemporaryDirectory } from './temporary-directory.js';
import { prepareLaunchBoundary, type LaunchBoundary } from './launch-boundary.js';

export interface LaunchHooks {
  /** Each event of the trusted prefix, for the live status line. */
  onEvent?: (event: ProtocolEvent) => void;
  /** Called once the intent is durable and the child is about to be spawned. */
  onIntent?: (intent: IntentRecord) => void;
  /** The operator's interrupt: the attempt's tree is killed and the outcome is `cancelled` (R8.1). */
  signal?: AbortSignal;
}

export type Launch =
  | {
      kind: 'concluded';
      intent: AppendedRecord & { record: IntentRecord };
      outcome: AppendedRecord & { record: OutcomeRecord };
      /** A torn final line found on opening, cut before the intent was appended (R8.4). */
      truncatedTail: IntentRecord['truncatedTail'];
      /** A stale lock of a dead supervisor that was taken over. */
      reclaimedLock: 'none' | LockHolder | 'unreadable';
    }
  | RunRefusal
  | RunFailure;

/**
 * One attempt's life after planning: lock → chain, coverage at the base commit and workspace
 * (together) → environment → request → intent (fsync'd, R8.4) → spawn and supervise → classify
 * (R8.2) → artifacts → outcome. Refusals before the intent append nothing and withdraw the
 * workspace; the lock is held throughout and released at the end.
 */
export async function launchAttempt(plan: RunPlan, hooks: LaunchHooks = {}): Promise<Launch> {
  const retry = plan.retry;
  const runId = retry === 'none' ? newRunId() : retry.firstIntent.runId;
  const number = retry === 'none' ? 1 : retry.lastAttempt + 1;
  const lock = await acquireRepositoryLock(plan.paths.lock, { runId, attempt: number });
  if (lock.kind === 'refused') return refused('launch', 'live-attempt', lock.message, lock.holder);
  try {
    return await launchHoldingLock(plan, hooks, runId, number, lock.reclaimed);
  } finally {
    await lock.release();
  }
}

async function launchHoldingLock(
  plan: RunPlan,
  hooks: LaunchHooks,
  runId: string,
  number: number,
  reclaimedLock: 'none' | LockHolder | 'unreadable',
): Promise<Launch> {
  // Under the lock, so the head read is the one the intent links to: every link verified, a broken
  // chain refused before anything is written (R8.4). Coverage is read again at the base commit
  // (R9.4). The workspace is prepared meanwhile (R8.6): git answers while the chain is checked, and
  // a refusal from either reading withdraws it, so a refused attempt leaves the repository as found.
  // In this order: each git process is started before the chain's checking holds the event loop.
  const [prepared, launchCoverage, chainOpening] = await Promise.all([
    prepareWorkspace({ target: plan.target, runId, baseCommit: plan.baseCommit, mode: plan.retry === 'none' ? 'new-run' : 'retry' }),
    checkCoverageAtLaunch({
      repository: plan.target.path,
      spec: plan.request.spec,
      baseCommit: plan.baseCommit,
      adapterCommands: plan.manifest.requiresCommands,
      plan: plan.coverageReading,
    }),
    openChainSummaries(plan.paths.chain),
  ]);
  const readings = judgeReadings(chainOpening, launchCoverage, hooks.signal);
  if (readings.kind !== 'go') {
    if (prepared.kind === 'refused') return readings;
    const withdrawn = await withdrawWorkspace(plan.target, prepared.workspace);
    if (withdrawn === 'withdrawn') return readings;
    return { ...readings, message: `${readings.message}\nthe workspace prepared for it could not be withdrawn (${withdrawn.failed})` };
  }
  if (prepared.kind === 'refused') return refused('launch', 'workspace', prepared.message, { path: prepared.path, reason: prepared.reason });
  const { opening, coverage } = readings;
  const workspace = prepared.workspace;

  const names = attemptArtifactNames(runId, number);
  const attemptTag = `statecraft-${runId}-${number}-${randomUUID()}`;
  const temporaryDirectory = await createAttemptTemporaryDirectory(runId, number);
  const environment = constructEnvironment(plan.selection, {
    runId,
    attempt: number,
    temporaryDirectory,
    extra: [{ name: ATTEMPT_TAG_VARIABLE, value: attemptTag, why: 'finds every process of the attempt, including ones that left its group (R7.3)' }],
  });
  const request = buildRequest(plan, { runId, number, workspace: workspace.path, baseCommit: plan.baseCommit }, new Date());
  const requestText = `${JSON.stringify(request, null, 2)}\n`;
  // R12: the boundary is set up and probed before anything is appended; a refusal appends nothing
  // and withdraws the workspace, as the other refusals before the intent do.
  const boundary = await prepareBoundaryOrRefuse(plan, { workspace, temporaryDirectory, environment: environment.variables, requestText });
  if (boundary.kind === 'refused' || boundary.kind === 'failed') return boundary;
  // The launch reading is the recorded one (R9.4).
  const posture = plannedPosture({ ...plan, coverage: coverage.coverage }, environment.record, boundary.kind === 'none' ? boundary.record : boundary.established.record);

  let intent: AppendedRecord & { record: IntentRecord };
  try {
    await mkdir(plan.paths.attempt(runId, number), { recursive: true, mode: 0o700 });
    if (opening.nextSeq === 0) await writeFileDurably(plan.paths.target, `${JSON.stringify({ path: plan.target.path, key: plan.target.key })}\n`);
    const [requestArtifact, promptArtifact] = await Promise.all([
      keepArtifact(plan.paths.directory, names.request, requestText),
      keepArtifact(plan.paths.directory, names.prompt, plan.request.prompt),
    ]);
    const position: ChainPosition = { head: opening.head, nextSeq: opening.nextSeq, torn: opening.torn };
    const appended = await appendRecord(plan.paths.chain, position, {
      kind: 'intent',
      at: new Date().toISOString(),
      runId,
      attempt: number,
      adapter: { name: plan.adapter.name, version: plan.adapter.version },
      qualification: plan.qualification.verdict,
      target: { path: plan.target.path, key: plan.target.key },
      baseCommit: plan.baseCommit,
      branch: workspace.branch,
      workspace: workspace.path,
      prompt: request.prompt,
      artifacts: { request: requestArtifact, prompt: promptArtifact },
      deadline: request.deadline,
      supervisor: { pid: process.pid, host: hostname() },
      posture,
      truncatedTail: opening.torn,
    });
    intent = appended as AppendedRecord & { record: IntentRecord };
  } catch (error) {
    await removeAttemptTemporaryDirectory(temporaryDirectory);
    return { kind: 'failed', stage: 'intent', path: plan.paths.directory, message: `cannot write the intent (${(error as Error).message}); nothing was spawned`, spawned: false, cause: error };
  }
  hooks.onIntent?.(intent.record);

  const supervised = await superviseWithCancel(plan, hooks, {
    workspace: workspace.path,
    environment: environment.variables,
    attemptTag,
    requestFile: boundary.kind === 'established' ? boundary.requestFile : `${plan.paths.directory}/${names.request}`,
    ...(boundary.kind === 'established' ? { boundary: boundary.established } : {}),
    streamFile: `${plan.paths.directory}/${names.stream}`,
    stderrFile: `${plan.paths.directory}/${names.stderr}`,
  });
  if (supervised.kind === 'refused') {
    await removeAttemptTemporaryDirectory(temporaryDirectory);
    return refused('launch', 'workspace', `${supervised.message} (the intent stays without an outcome)`, supervised);
  }
  if (supervised.kind === 'failed') {
    await removeAttemptTemporaryDirectory(temporaryDirectory);
    return { kind: 'failed', stage: 'spawn', path: plan.adapter.path, message: `${supervised.message}; the intent stays without an outcome`, spawned: false, cause: supervised.cause };
  }

  const classified = classifyAttempt(supervised.attempt, { manifest: plan.manifest, negotiation: plan.negotiation, adapter: { name: plan.adapter.name, version: plan.adapter.version, digest: plan.adapter.digest } });
  // The adapter never produces `cancelled`; only the operator's interrupt does (R8.1).
  const result: AttemptResult = supervised.cancelled ? { ...classified, outcome: 'cancelled', cause: 'operator-cancel' } : classified;

  try {
    // Independent steps, run together: each fsync and git call is paid on every attempt.
    const [resultArtifact, temporary, head] = await Promise.all([
      keepArtifact(plan.paths.directory, names.result, `${JSON.stringify(result, null, 2)}\n`),
      removeAttemptTemporaryDirectory(temporaryDirectory),
      readWorkspaceHead(workspace.path),
    ]);
    // The digests of the very bytes the supervisor read from the child's pipes, written and fsync'd
    // by its tee (supervise/stream-tee.ts) — not of whatever the files hold by now, so an edit made
    // to them during the attempt is never sealed into the chain. The result's write above fsyncs
    // the directory that holds both files.
    const stream = { path: names.stream, ...supervised.attempt.stdout };
    const stderr = { path: names.stderr, ...supervised.attempt.stderr };
    const appended = await appendRecord(plan.paths.chain, intent.position, {
      kind: 'outcome',
      at: new Date().toISOString(),
      runId,
      attempt: number,
      intent: intent.digest,
      outcome: result.outcome,
      cause: result.cause,
      refusalCount: result.refusalCount,
      cost: result.cost,
      timedOut: result.timedOut,
      result,
      headCommit: head.head,
      workspaceDirty: head.dirty,
      artifacts: { stream, stderr, result: resultArtifact },
      temporaryDirectory: temporary,
    });
    return {
      kind: 'concluded',
      intent,
      outcome: appended as AppendedRecord & { record: OutcomeRecord },
      truncatedTail: opening.torn,
      reclaimedLock,
    };
  } catch (error) {
    return { kind: 'failed', stage: 'outcome', path: plan.paths.directory, message: `cannot write the outcome (${(error as Error).message}); the attempt ran and its intent stays without an outcome`, spawned: true, cause: error };
  }
}

/**
 * The boundary for this launch (R12), or the refusal that withdraws the workspace and appends
 * nothing (exit 2). An unexpected i/o error setting it up is a failure before the intent.
 */
async function prepareBoundaryOrRefuse(
  plan: RunPlan,
  attempt: { workspace: PreparedWorkspace; temporaryDirectory: string; environment: Record<string, string>; requestText: string },
): Promise<Exclude<LaunchBoundary, { kind: 'refused' }> | RunRefusal | RunFailure> {
  let boundary: LaunchBoundary;
  try {
    boundary = await prepareLaunchBoundary({
      choice: plan.boundary,
      productHome: plan.request.home,
      workspace: attempt.workspace.path,
      temporaryDirectory: attempt.temporaryDirectory,
      managedPaths: plan.manifest.managedPaths ?? [],
      environment: attempt.environment,
      requestText: attempt.requestText,
      source: plan.request.source,
    });
  } catch (error) {
    await removeAttemptTemporaryDirectory(attempt.temporaryDirectory);
    await withdrawWorkspace(plan.target, attempt.workspace);
    return { kind: 'failed', stage: 'intent', path: plan.request.home, message: `cannot set up the evidence boundary (${(error as Error).message}); nothing was spawned`, spawned: false, cause: error };
  }
  if (boundary.kind !== 'refused') return boundary;
  await removeAttemptTemporaryDirectory(attempt.temporaryDirectory);
  const withdrawn = await withdrawWorkspace(plan.target, attempt.workspace);
  const tail = withdrawn === 'withdrawn' ? 'nothing appended' : `nothing appended; the workspace prepared for it could not be withdrawn (${withdrawn.failed})`;
  return refused('launch', 'boundary', `${boundary.message}, ${tail}`, { reason: boundary.reason, probe: boundary.probe });
}

type Supervised =
  | { kind: 'supervised'; attempt: SupervisedAttempt; cancelled: boolean }
  | { kind: 'refused'; message: string; path: string }
  | { kind: 'failed'; message: string; cause: unknown };

/**
 * Supervises the adapter; an operator interrupt kills every process carrying the attempt tag,
 * so the supervisor sees the tree end and returns what it read, and the outcome is `cancelled`.
 */
async function superviseWithCancel(
  plan: RunPlan,
  hooks: LaunchHooks,
  files: { workspace: string; environment: Record<string, string>; attemptTag: string; requestFile: string; streamFile: string; stderrFile: string; boundary?: EstablishedBoundary },
): Promise<Supervised> {
  let cancelled = false;
  let sweeper: NodeJS.Timeout | undefined;
  const killTagged = (): void => {
    for (const pid of findAttemptProcesses(files.attemptTag, undefined, 'started-since-this-process')) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone; the supervisor's survivor probe reports anything that is not.
      }
    }
  };
  // The interrupt may land between the intent and the spawn: keep sweeping until supervision returns.
  const cancel = (): void => {
    cancelled = true;
    killTagged();
    sweeper = setInterval(killTagged, 100);
  };
  if (hooks.signal?.aborted === true) cancel();
  hooks.signal?.addEventListener('abort', cancel, { once: true });
  try {
    const answer = await superviseAdapter({
      executable: plan.adapter.path,
      args: ['run', '--request', files.requestFile],
      workspace: files.workspace,
      environment: files.environment,
      prompt: plan.request.prompt,
      deadlineMs: plan.request.deadlineMs,
      attemptTag: files.attemptTag,
      ...(files.boundary === undefined ? {} : { boundary: files.boundary }),
      streamFile: files.streamFile,
      stderrFile: files.stderrFile,
      ...(hooks.onEvent === undefined ? {} : { onEvent: hooks.onEvent }),
    });
    if (answer.kind === 'refused') return { kind: 'refused', message: answer.message, path: answer.path };
    return { kind: 'supervised', attempt: answer.attempt, cancelled };
  } catch (error) {
    return { kind: 'failed', message: `could not start the adapter ${plan.adapter.path}: ${(error as Error).message}`, cause: error };
  } finally {
    hooks.signal?.removeEventListener('abort', cancel);
    if (sweeper !== undefined) clearInterval(sweeper);
  }
}

/** Both readings taken before the intent, when neither stops the attempt. */
interface ReadingsToGoOn {
  kind: 'go';
  opening: Extract<ChainOpening<ChainSummary>, { kind: 'opened' }>;
  coverage: Extract<LaunchCoverage, { kind: 'ready' }>;
}

/**
 * What stops an attempt before its intent, in order: a chain that cannot be read or is broken
 * (R8.4), coverage that drifted or is refused at the base (R9.4), the operator's interrupt.
 */
function judgeReadings(opening: ChainOpening<ChainSummary>, coverage: LaunchCoverage, signal: AbortSignal | undefined): ReadingsToGoOn | RunRefusal | RunFailure {
  if (opening.kind === 'unreadable') return { kind: 'failed', stage: 'intent', path: opening.path, message: opening.message, spawned: false };
  if (opening.kind === 'broken') return refused('launch', 'chain-broken', opening.message, { path: opening.path, lineNumber: opening.lineNumber });
  // Drift refuses naming the input.
  if (coverage.kind === 'drifted') return refused('launch', 'coverage', coverage.message, { inputs: coverage.inputs });
  if (coverage.kind === 'refused') {
    return refused('launch', 'coverage', `${coverage.message}\nrefused before spawn, nothing appended`, { input: coverage.input, reason: coverage.reason });
  }
  // Interrupted before the intent: nothing to record. From the intent on, an interrupt is an
  // attempt recorded as `cancelled` (the sweep in superviseWithCancel starts at once).
  if (signal?.aborted === true) return refused('launch', 'cancelled', 'the operator interrupted before the intent was written; nothing appended', null);
  return { kind: 'go', opening, coverage };
}
