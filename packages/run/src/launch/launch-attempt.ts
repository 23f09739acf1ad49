import { hostname } from 'node:os';
import { join } from 'node:path';
import { attemptArtifactNames, newAttemptTag, writeFileDurably } from '@statecraft/records';
import { EvidenceWriteError } from '../supervise/stream-tee.js';
import { runAttempt, type AttemptRun } from '../attempt/run-attempt.js';
import type { Assembly } from '../supervise/spawn-adapter.js';
import type { StreamReading, ProtocolEvent } from '@statecraft/adapter';
import type { BoundaryLaunch } from '@statecraft/environment';
import { SerialAppender, type AppendedRecord } from '@statecraft/records';
import { ChainMovedError } from '@statecraft/records';
import type { ChainSummary } from '@statecraft/records';
import { openChainForAppend } from '@statecraft/records';
import type { ChainOpening } from '@statecraft/records';
import type { IntentRecord, OutcomeRecord } from '@statecraft/records';
import { formatTargetName } from '@statecraft/records';
import { acquireRepositoryLock, type LockHolder } from '@statecraft/records';
import { removeDeadAttemptTemporaryDirectory } from '@statecraft/records';
import type { RunPlan } from '../plan/plan-run.js';
import type { Posture } from '@statecraft/records';
import { refused, type RunFailure, type RunRefusal } from '../refusal.js';
import { newRunId } from '@statecraft/records';
import { prepareWorkspace, withdrawWorkspace, type PreparedWorkspace } from '../workspace/prepare-workspace.js';
import { registeredGitDirectory } from '@statecraft/records';
import type { WorkspaceGitRestoration } from '@statecraft/records';
import { checkCoverageAtLaunch, type LaunchCoverage } from '../coverage/base-commit-reading.js';
import type { buildRequest } from './build-request.js';
import { plannedPosture } from './compose-posture.js';
import { failedPath, writingFile } from '@statecraft/records';
import { releaseOutcomeReserve } from './outcome-reserve.js';
import { endOfAttempt, endOfAttemptBoundMs } from './end-of-attempt-bound.js';
import { removeAttemptTemporaryDirectory } from './temporary-directory.js';
import { withdrawIntentFiles, type IntentFiles, type IntentFilesPlace } from './intent-files.js';
import type { LaunchBoundary } from './launch-boundary.js';
import { readWorkspaceStart, type WorkspaceStart } from './workspace-start.js';
import { concludeAttempt, firstCandidateReads, type AttemptIdentity, type PreparedAttempt } from './conclude-attempt.js';
import { makeBeforeIntent, type AdapterStart, type BeforeIntent } from './before-intent.js';

export interface LaunchHooks {
  /** Each event of the trusted prefix, for the live status line. */
  onEvent?: (event: ProtocolEvent) => void;
  /** Called once the intent is durable and the child is about to be spawned. */
  onIntent?: (intent: IntentRecord) => void;
  /** The operator's interrupt: the attempt's tree is killed and the outcome is `cancelled` (R8.1). */
  signal?: AbortSignal;
}

/**
 * One attempt of a run that started several together and holds the target's lock for all of them
 * (launch-run.ts): the attempt takes no lock and does not open the chain again; it appends
 * through the run's appender, whose opening the run verified once.
 */
export interface HeldAttempt {
  runId: string;
  number: number;
  chain: SerialAppender;
  opening: Extract<ChainOpening<ChainSummary>, { kind: 'opened' }>;
  reclaimedLock: 'none' | LockHolder | 'unreadable';
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
      /** The workspace's git pointer and registration as the attempt left them, put back as statecraft made them. */
      workspaceGit: WorkspaceGitRestoration | 'not-registered';
    }
  | RunRefusal
  | RunFailure;

/**
 * One attempt's life after planning: lock → chain, coverage at the base commit and workspace
 * (together) → environment → request → intent (fsync'd, R8.4) → spawn and supervise → classify
 * (R8.2) → artifacts → outcome. Refusals before the intent append nothing and withdraw the
 * workspace; the lock is held throughout and released at the end.
 */
export async function launchAttempt(plan: RunPlan, hooks: LaunchHooks = {}, held?: HeldAttempt): Promise<Launch> {
  if (held !== undefined) return launchHoldingLock(plan, hooks, { runId: held.runId, number: held.number, reclaimedLock: held.reclaimedLock }, held);
  const retry = plan.retry;
  const runId = retry === 'none' ? newRunId() : retry.firstIntent.runId;
  const number = retry === 'none' ? 1 : retry.lastAttempt + 1;
  let lock: Awaited<ReturnType<typeof acquireRepositoryLock>>;
  try {
    lock = await acquireRepositoryLock(plan.paths.lock, { runId, attempt: number });
  } catch (error) {
    // A product home that is a file, read-only or full: an i/o failure naming the path, not a crash.
    const path = failedPath(error, plan.paths.lock);
    return {
      kind: 'failed',
      stage: 'intent',
      path,
      message: `cannot take the target's lock (${(error as Error).message}); the product home must be a writable directory; nothing was spawned, nothing appended`,
      spawned: false,
      cause: error,
    };
  }
  if (lock.kind === 'refused') return refused('launch', 'live-attempt', lock.message, lock.holder);
  try {
    // A supervisor that died outright left its attempt's TMPDIR; the lock it left says whose.
    if (typeof lock.reclaimed === 'object') await removeDeadAttemptTemporaryDirectory(lock.reclaimed);
    return await launchHoldingLock(plan, hooks, { runId, number, reclaimedLock: lock.reclaimed });
  } finally {
    await lock.release();
  }
}

async function launchHoldingLock(plan: RunPlan, hooks: LaunchHooks, identity: AttemptIdentity, held?: HeldAttempt): Promise<Launch> {
  const { runId, number } = identity;
  const names = attemptArtifactNames(runId, number);
  const attemptTag = newAttemptTag(runId, number);
  const streamFile = join(plan.paths.directory, names.stream);
  const stderrFile = join(plan.paths.directory, names.stderr);
  // The adapter's gate opens only once its intent is durable (R8.4): the adapter never starts
  // before. Under the boundary its sandbox is set up as soon as the boundary's probe is started,
  // and waits at the closer's gate while git adds the worktree and the intent is appended;
  // whatever stops the attempt before its intent settles the gate false, and the waiting sandbox
  // is killed before anything else is withdrawn.
  let settleGate: (go: boolean) => void = () => undefined;
  const gate = new Promise<boolean>((resolve) => {
    settleGate = resolve;
  });
  // Once the adapter's tree is gone, while its evidence files are made durable: a candidate's first
  // reads are started for an adapter that reported a result (it may have completed, R13.2).
  let treeGone: (reading: StreamReading) => void = () => undefined;
  // Under the boundary, whether the adapter's sandbox reached its gate (spawn-adapter.ts): known before the intent.
  let tellAssembly: (assembled: Promise<Assembly>) => void = () => undefined;
  const assembly = new Promise<Assembly>((resolve) => {
    tellAssembly = (assembled) => resolve(assembled);
  });
  const startAdapter = (start: AdapterStart): Promise<Supervised> =>
    superviseAttempt(plan, hooks, { ...start, attemptTag, streamFile, stderrFile, gate, onTreeGone: (reading) => treeGone(reading), onAssembly: tellAssembly });
  let early: Promise<Supervised> | undefined;
  const withdrawLaunch = async (): Promise<void> => {
    settleGate(false);
    await early;
  };
  try {
    // The boundary needs only the workspace's directory and the attempt's TMPDIR: it is set up and
    // probed (R12) while git checks the workspace out and the chain and coverage are read, and
    // consulted only once both readings let the attempt go on.
    const made = makeBeforeIntent(plan, { runId, number, attemptTag }, (start) => {
      early = startAdapter(start);
    });
    const readings = await takeReadings(plan, { runId, number, held }, hooks.signal, made.onDirectory);
    const goOn = await goOnOrWithdraw(plan, readings, await made.settled(), withdrawLaunch);
    if ('stopped' in goOn) return goOn.stopped;
    const { opening, coverage, workspace, setUp, boundary } = goOn;
    const { temporaryDirectory, environment, request } = setUp;
    // Without the boundary nothing was set up beside the probe (the supervisor then waits at the gate
    // without spawning); with it, only when the attempt's directory could not be made.
    const supervising =
      early ??
      startAdapter({
        workspace: workspace.path,
        environment: environment.variables,
        requestFile: boundary.kind === 'established' ? boundary.requestFile : join(plan.paths.directory, names.request),
        ...(boundary.kind === 'established' ? { boundary: boundary.established } : {}),
      });
    if (boundary.kind === 'established') {
      // A supervisor that ended before it spawned answers for itself below.
      const assembled = await Promise.race([assembly, supervising.then((): Assembly => ({ assembled: true }))]);
      if (!assembled.assembled) {
        settleGate(false);
        await supervising;
        return await withdrawNotAssembled(plan, setUp, workspace, assembled.said);
      }
    }
    // The launch reading is the recorded one (R9.4).
    const posture = plannedPosture(
      { ...plan, coverage: coverage.coverage },
      environment.record,
      boundary.kind === 'none' ? boundary.record : boundary.established.record,
    );
    const attempt: PreparedAttempt = {
      identity,
      // The run's appender, or one of this attempt's own at the tip its opening read.
      chain: held?.chain ?? new SerialAppender(plan.paths.chain, { head: opening.head, nextSeq: opening.nextSeq, length: opening.length, torn: opening.torn }),
      names,
      workspace,
      temporaryDirectory,
      reserve: setUp.filesPlace.reserve,
      // Looked up now, while the intent is appended, not after the attempt: from the repository's
      // side (the workspace's own `.git` is the agent's to rewrite, R12), before anything ran there.
      gitDirectory: registeredGitDirectory(plan.target.commonDirectory, workspace.path),
      end: endOfAttempt(endOfAttemptBoundMs(plan.request.deadlineMs), hooks.signal),
    };
    // Now, not beside the probe: the probe writes a file of its own in the workspace, removed once it has ended.
    const workspaceStart = readWorkspaceStart(plan, workspace.path, attempt.gitDirectory, hooks.signal);
    treeGone = (reading) => {
      if (reading.terminal !== 'not-recorded' && reading.terminal.type === 'result') attempt.firstReads = firstCandidateReads(attempt, plan.baseTree);
    };
    let intent: Awaited<ReturnType<typeof appendIntent>> | undefined;
    try {
      intent = await appendIntent(plan, attempt, {
        firstRecord: held === undefined && opening.nextSeq === 0,
        request,
        posture,
        files: setUp.files,
        filesPlace: setUp.filesPlace,
        start: workspaceStart,
      });
    } finally {
      settleGate(intent?.kind === 'appended');
    }
    if (intent.kind !== 'appended') {
      await supervising;
      return intent;
    }
    hooks.onIntent?.(intent.intent.record);
    return await superviseThenConclude(plan, attempt, {
      intent: intent.intent,
      supervising,
      streamFile,
      stderrFile,
      truncatedTail: intent.intent.record.truncatedTail,
    });
  } finally {
    // Whatever ended this before the gate was opened (a throw included) leaves no sandbox waiting.
    settleGate(false);
  }
}

/** What the intent is made of once nothing stopped the attempt before it. */
interface GoingOn {
  opening: ReadingsToGoOn['opening'];
  coverage: ReadingsToGoOn['coverage'];
  workspace: PreparedWorkspace;
  setUp: Extract<BeforeIntent, { kind: 'made' }>;
  boundary: Exclude<LaunchBoundary, { kind: 'refused' }>;
}

/**
 * What stops an attempt before its intent, in order — a reading that refuses (R8.4, R9.4), a
 * set-up that failed, the boundary's refusal (R12) — each withdrawing what was made for it, the
 * waiting launch first (`withdrawLaunch`); or what the intent is made of.
 */
async function goOnOrWithdraw(
  plan: RunPlan,
  readings: Awaited<ReturnType<typeof takeReadings>>,
  setUp: BeforeIntent,
  withdrawLaunch: () => Promise<void>,
): Promise<GoingOn | { stopped: RunRefusal | RunFailure }> {
  if (readings.kind !== 'go') {
    await withdrawLaunch();
    return { stopped: await withdrawRefused(plan, readings, setUp) };
  }
  const { opening, coverage, workspace } = readings;
  if (setUp.kind === 'failed') {
    await withdrawLaunch();
    await withdrawWorkspace(plan.target, workspace);
    if (setUp.temporaryDirectory !== undefined) await removeAttemptTemporaryDirectory(setUp.temporaryDirectory);
    return { stopped: setUp.failure };
  }
  const { boundary } = setUp;
  if (boundary.kind === 'refused') {
    await withdrawLaunch();
    return { stopped: await withdrawForBoundary(plan, setUp, workspace, boundary) };
  }
  return { opening, coverage, workspace, setUp, boundary };
}

/** The boundary refused the launch once its sandbox is withdrawn: what was made for the attempt is withdrawn too, nothing appended. */
async function withdrawForBoundary(
  plan: RunPlan,
  setUp: Extract<BeforeIntent, { kind: 'made' }>,
  workspace: PreparedWorkspace,
  boundary: { reason: string; message: string; probe: unknown },
): Promise<RunRefusal> {
  await Promise.all([removeAttemptTemporaryDirectory(setUp.temporaryDirectory), withdrawIntentFiles(setUp.filesPlace, setUp.files)]);
  const withdrawn = await withdrawWorkspace(plan.target, workspace);
  const tail = withdrawn === 'withdrawn' ? 'nothing appended' : `nothing appended; the workspace prepared for it could not be withdrawn (${withdrawn.failed})`;
  return refused('launch', 'boundary', `${boundary.message}, ${tail}`, { reason: boundary.reason, probe: boundary.probe });
}

/**
 * The adapter's sandbox ended before its closer reached the gate: bwrap could not assemble it (a
 * path it binds changed under it, R12). The adapter never started, so the launch is refused as the
 * probe's failure is, before anything is appended — not recorded as an attempt that ran.
 */
function withdrawNotAssembled(plan: RunPlan, setUp: Extract<BeforeIntent, { kind: 'made' }>, workspace: PreparedWorkspace, said: string): Promise<RunRefusal> {
  const message = `the adapter's sandbox could not be assembled (${said}); nothing was started`;
  return withdrawForBoundary(plan, setUp, workspace, { reason: 'probe-failed', message, probe: 'not-run' });
}

/** The adapter, once its intent is durable: supervised to its end, then the outcome concluded. */
async function superviseThenConclude(
  plan: RunPlan,
  attempt: PreparedAttempt,
  ran: {
    intent: AppendedRecord & { record: IntentRecord };
    supervising: Promise<Supervised>;
    streamFile: string;
    stderrFile: string;
    truncatedTail: IntentRecord['truncatedTail'];
  },
): Promise<Launch> {
  const { temporaryDirectory } = attempt;
  const { intent, streamFile, stderrFile } = ran;
  const supervised = await ran.supervising;
  if (supervised.kind === 'withdrawn') throw new Error('the adapter was withdrawn after its intent was appended');
  if (supervised.kind === 'refused' || supervised.kind === 'failed') {
    await Promise.all([removeAttemptTemporaryDirectory(temporaryDirectory), releaseOutcomeReserve(attempt.reserve)]);
    if (supervised.kind === 'refused') return refused('launch', 'workspace', `${supervised.message} (the intent stays without an outcome)`, supervised);
    return {
      kind: 'failed',
      stage: 'spawn',
      path: supervised.path,
      message: `${supervised.message}; the intent stays without an outcome`,
      spawned: false,
      cause: supervised.cause,
    };
  }
  return concludeAttempt(plan, attempt, { intent, supervised, streamFile, stderrFile, truncatedTail: ran.truncatedTail });
}

/**
 * The readings taken under the lock, before anything is written, with the workspace prepared
 * beside them. Under the lock, so the head read is the one the intent links to: every link since
 * the last verified tip (its checkpoint) verified, a broken chain refused before anything is
 * written (R8.4). Coverage is read again at the base commit (R9.4). The workspace is prepared
 * meanwhile (R8.6): git answers while the chain is checked. Nothing is withdrawn here: the caller
 * first lets the boundary's probe, which runs in the workspace, end (withdrawRefused).
 */
async function takeReadings(
  plan: RunPlan,
  { runId, number, held }: { runId: string; number: number; held: HeldAttempt | undefined },
  signal: AbortSignal | undefined,
  onDirectory: (path: string, added: Promise<boolean>) => void,
): Promise<(Omit<ReadingsToGoOn, 'kind'> & { kind: 'go'; workspace: PreparedWorkspace }) | RefusedReadings> {
  // In this order: each git process is started before the chain's checking holds the event loop.
  const [prepared, launchCoverage, chainOpening] = await Promise.all([
    prepareWorkspace({
      target: plan.target,
      runId,
      baseCommit: plan.baseCommit,
      mode: plan.retry === 'none' ? 'new-run' : 'retry',
      onDirectory,
      ...(held === undefined ? {} : { besideOthers: number }),
    }),
    checkCoverageAtLaunch({
      repository: plan.target.path,
      spec: plan.request.spec,
      baseCommit: plan.baseCommit,
      adapterCommands: plan.manifest.requiresCommands,
      plan: plan.coverageReading,
    }),
    held === undefined ? openChainForAppend(plan.paths.chain) : held.opening,
  ]);
  const readings = judgeReadings(chainOpening, launchCoverage, signal);
  const workspace = prepared.kind === 'prepared' ? prepared.workspace : undefined;
  if (readings.kind !== 'go') return { refusal: readings, workspace };
  if (prepared.kind === 'refused')
    return { refusal: refused('launch', 'workspace', prepared.message, { path: prepared.path, reason: prepared.reason }), workspace };
  return { ...readings, workspace: prepared.workspace };
}

/** A reading that stops the attempt before its intent, and the workspace made meanwhile (to withdraw). */
interface RefusedReadings {
  kind?: undefined;
  refusal: RunRefusal | RunFailure;
  workspace: PreparedWorkspace | undefined;
}

/**
 * A refusal before the intent withdraws what was made for the attempt — the workspace and the
 * TMPDIR, once the boundary's probe in them has ended — so a refused attempt leaves the
 * repository as found, and appends nothing.
 */
async function withdrawRefused(plan: RunPlan, readings: RefusedReadings, setUp: BeforeIntent): Promise<RunRefusal | RunFailure> {
  const { refusal, workspace } = readings;
  if (setUp.temporaryDirectory !== undefined) await removeAttemptTemporaryDirectory(setUp.temporaryDirectory);
  if (setUp.kind === 'made') await withdrawIntentFiles(setUp.filesPlace, setUp.files);
  if (workspace === undefined) return refusal;
  const withdrawn = await withdrawWorkspace(plan.target, workspace);
  if (withdrawn === 'withdrawn') return refusal;
  return { ...refusal, message: `${refusal.message}\nthe workspace prepared for it could not be withdrawn (${withdrawn.failed})` };
}

/**
 * The intent, appended and fsync'd with the request and prompt it names (R8.4): from here on the
 * attempt may be spawned. The outcome reserve is kept first. A failure appends nothing and
 * withdraws what was made for the attempt, as a refusal does (R8.6).
 */
async function appendIntent(
  plan: RunPlan,
  attempt: PreparedAttempt,
  made: {
    /** The chain's first record: the target's name is written beside it. */
    firstRecord: boolean;
    request: ReturnType<typeof buildRequest>;
    posture: Posture;
    files: Promise<IntentFiles>;
    filesPlace: IntentFilesPlace;
    /** The workspace as the attempt finds it (readWorkspaceStart), or why it could not be read. */
    start: Promise<WorkspaceStart>;
  },
): Promise<{ kind: 'appended'; intent: AppendedRecord & { record: IntentRecord } } | RunRefusal | RunFailure> {
  const { runId, number } = attempt.identity;
  const { request } = made;
  // Written beside the probe (intent-files.ts); a failure to write them withdraws them with the rest.
  const [files, start] = await Promise.all([made.files, made.start]);
  if (files.kind === 'failed') return withdrawUnappended(plan, attempt, files.error, withdrawIntentFiles(made.filesPlace, made.files));
  if (start.kind !== 'read') {
    const left = await withdrawAttempt(plan, attempt, withdrawIntentFiles(made.filesPlace, made.files));
    return { ...start, message: `${start.message}${left}` };
  }
  try {
    if (made.firstRecord) {
      await writingFile(plan.paths.target, () => writeFileDurably(plan.paths.target, formatTargetName(plan.target)));
    }
    const [requestArtifact, promptArtifact] = [files.request, files.prompt];
    const appended = await writingFile(plan.paths.chain, () =>
      attempt.chain.append((position) => ({
        kind: 'intent',
        at: new Date().toISOString(),
        runId,
        attempt: number,
        adapter: { name: plan.adapter.name, version: plan.adapter.version },
        qualification: plan.qualification.verdict,
        target: { path: plan.target.path, key: plan.target.key },
        baseCommit: plan.baseCommit,
        branch: attempt.workspace.branch,
        workspace: attempt.workspace.path,
        start: start.start,
        prompt: request.prompt,
        artifacts: { request: requestArtifact, prompt: promptArtifact },
        deadline: request.deadline,
        supervisor: { pid: process.pid, host: hostname() },
        posture: made.posture,
        truncatedTail: position.torn,
        ...(plan.request.group === undefined ? {} : { group: plan.request.group }),
      })),
    );
    return { kind: 'appended', intent: appended as AppendedRecord & { record: IntentRecord } };
  } catch (error) {
    // The request and the prompt stay: a line that failed on its way may still have reached the chain naming them.
    return withdrawUnappended(plan, attempt, error, releaseOutcomeReserve(attempt.reserve));
  }
}

/**
 * Nothing was appended: withdraw what was made for the attempt, as a refusal does (R8.6) — the
 * workspace, the TMPDIR, and (`files`) the intent's files or their reserve — and name the failure.
 */
async function withdrawUnappended(plan: RunPlan, attempt: PreparedAttempt, error: unknown, files: Promise<void>): Promise<RunRefusal | RunFailure> {
  const left = await withdrawAttempt(plan, attempt, files);
  // The chain moved under the lock (R8.5): refused like a broken chain.
  if (error instanceof ChainMovedError) return refused('launch', 'chain-moved', `${error.message}${left}`, { path: error.path });
  const message = `cannot write the intent (${(error as Error).message}); nothing was spawned, nothing appended${left}`;
  return { kind: 'failed', stage: 'intent', path: failedPath(error, plan.paths.directory), message, spawned: false, cause: error };
}

/** Withdraws the workspace, the TMPDIR and (`files`) the intent's files; says what could not be withdrawn, or nothing. */
async function withdrawAttempt(plan: RunPlan, attempt: PreparedAttempt, files: Promise<void>): Promise<string> {
  const [withdrawn] = await Promise.all([
    withdrawWorkspace(plan.target, attempt.workspace),
    removeAttemptTemporaryDirectory(attempt.temporaryDirectory),
    files,
  ]);
  return withdrawn === 'withdrawn' ? '' : `; the workspace prepared for it could not be withdrawn (${withdrawn.failed})`;
}

type Supervised = Extract<AttemptRun, { kind: 'ran' | 'refused' | 'withdrawn' }> | { kind: 'failed'; message: string; path: string; cause: unknown };

/**
 * Runs the attempt through the core `qualify` also uses (@statecraft/adapter attempt/*): the
 * operator's interrupt is handed to the supervisor as a signal, raced beside the deadline, and
 * the classifier reads it as `cancelled` (R8.1). A failure to start is a value here, naming the file.
 */
async function superviseAttempt(
  plan: RunPlan,
  hooks: LaunchHooks,
  files: {
    workspace: string;
    environment: Record<string, string>;
    attemptTag: string;
    requestFile: string;
    streamFile: string;
    stderrFile: string;
    boundary?: BoundaryLaunch;
    gate: Promise<boolean>;
    onTreeGone: (reading: StreamReading) => void;
    onAssembly: (assembled: Promise<Assembly>) => void;
  },
): Promise<Supervised> {
  try {
    return await runAttempt({
      executable: plan.adapter.path,
      requestFile: files.requestFile,
      workspace: files.workspace,
      environment: files.environment,
      prompt: plan.request.prompt,
      deadlineMs: plan.request.deadlineMs,
      attemptTag: files.attemptTag,
      ...(files.boundary === undefined ? {} : { boundary: files.boundary }),
      streamFile: files.streamFile,
      stderrFile: files.stderrFile,
      gate: files.gate,
      onTreeGone: files.onTreeGone,
      onAssembly: files.onAssembly,
      manifest: plan.manifest,
      negotiation: plan.negotiation,
      adapter: { name: plan.adapter.name, version: plan.adapter.version, digest: plan.adapter.digest },
      ...(hooks.onEvent === undefined ? {} : { onEvent: hooks.onEvent }),
      ...(hooks.signal === undefined ? {} : { signal: hooks.signal }),
    });
  } catch (error) {
    // A kept file that could not be opened is not the adapter's failure: name the file (nothing was spawned).
    if (error instanceof EvidenceWriteError) return { kind: 'failed', message: `${error.message}; nothing was spawned`, path: error.path, cause: error };
    return { kind: 'failed', message: `could not start the adapter ${plan.adapter.path}: ${(error as Error).message}`, path: plan.adapter.path, cause: error };
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
function judgeReadings(
  opening: ChainOpening<ChainSummary>,
  coverage: LaunchCoverage,
  signal: AbortSignal | undefined,
): ReadingsToGoOn | RunRefusal | RunFailure {
  if (opening.kind === 'unreadable') return { kind: 'failed', stage: 'intent', path: opening.path, message: opening.message, spawned: false };
  if (opening.kind === 'broken') return refused('launch', 'chain-broken', opening.message, { path: opening.path, lineNumber: opening.lineNumber });
  // Drift refuses naming the input.
  if (coverage.kind === 'drifted') return refused('launch', 'coverage', coverage.message, { inputs: coverage.inputs });
  if (coverage.kind === 'refused') {
    return refused('launch', 'coverage', `${coverage.message}\nrefused before spawn, nothing appended`, { input: coverage.input, reason: coverage.reason });
  }
  // Interrupted before the intent: nothing to record. From the intent on, an interrupt is an
  // attempt recorded as `cancelled` (the supervisor races the signal from the spawn on).
  if (signal?.aborted === true) return refused('launch', 'cancelled', 'the operator interrupted before the intent was written; nothing appended', null);
  return { kind: 'go', opening, coverage };
}
