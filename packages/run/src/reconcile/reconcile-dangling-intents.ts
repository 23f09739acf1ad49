import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { ATTEMPT_TAG_VARIABLE, findAttemptProcesses } from '@statecraft/adapter';
import { attemptArtifactNames } from '@statecraft/records';
import { appendRecord, type ChainPosition } from '@statecraft/records';
import { chainPaths, targetDirectoryIn } from '@statecraft/records';
import { openChain, type ChainEntry } from '@statecraft/records';
import type { IntentRecord, OutcomeRecord } from '@statecraft/records';
import { keepArtifact } from '@statecraft/records';
import { failedPath, writingFile } from '@statecraft/records';
import { outcomeReservePath, releaseOutcomeReserve } from '../launch/outcome-reserve.js';
import { removeDeadAttemptTemporaryDirectory } from '@statecraft/records';
import { acquireRepositoryLock } from '@statecraft/records';
import { isRunId } from '@statecraft/records';
import { resolveTarget, type ResolvedTarget } from '@statecraft/records';
import { lostAttemptResult } from './lost-attempt-result.js';
import { restoreLostWorkspaceGit, type LostWorkspaceGit } from './restore-lost-workspace-git.js';

/** One dangling intent closed: where its intent and its new outcome stand, and what evidence was found. */
interface ReconciledAttempt {
  runId: string;
  attempt: number;
  /** 1-based lines of the chain. */
  intentLine: number;
  outcomeLine: number;
  stream: 'kept' | 'not-found';
  stderr: 'kept' | 'not-found';
  /** Processes of the attempt still running when it was reconciled (found by its attempt tag): recorded as survivors. */
  survivors: number[];
  /** The workspace's git pointer and registration, put back as statecraft made them where the agent had changed them. */
  workspaceGit: LostWorkspaceGit;
}

export type Reconciliation =
  | { kind: 'reconciled'; target: string; chain: string; reconciled: ReconciledAttempt[] }
  | { kind: 'refused'; reason: 'target' | 'chain-broken' | 'live-attempt'; message: string }
  | { kind: 'failed'; path: string; message: string; reconciled: ReconciledAttempt[] };

/**
 * `statecraft run reconcile` (R8.3): under the target's lock, so never while an attempt of it (or
 * an acceptance) is live, every intent with no outcome is an attempt whose supervisor was lost: an
 * outcome `interrupted (supervisor-lost)` is appended for it, hash-linked like every record, its
 * evidence the files the supervisor had kept (the stream read again with the supervisor's own
 * reader). An intent already concluded is never touched, so a second reconcile appends nothing.
 */
export async function reconcileDanglingIntents(request: { home: string; target: string }): Promise<Reconciliation> {
  const resolution = await resolveTarget(request.target);
  if (resolution.kind === 'refused') return { kind: 'refused', reason: 'target', message: resolution.message };
  const target = resolution.target;
  const paths = chainPaths(targetDirectoryIn(request.home, target.key));
  // Nothing recorded, nothing to close: no lock (and no directory) is made for it.
  if (!existsSync(paths.chain)) return { kind: 'reconciled', target: target.path, chain: paths.chain, reconciled: [] };
  let lock: Awaited<ReturnType<typeof acquireRepositoryLock>>;
  try {
    lock = await acquireRepositoryLock(paths.lock, { runId: 'reconciliation', attempt: 1, holding: 'reconciliation' });
  } catch (error) {
    return {
      kind: 'failed',
      path: failedPath(error, paths.lock),
      message: `cannot take the target's lock (${(error as Error).message}); nothing appended`,
      reconciled: [],
    };
  }
  if (lock.kind === 'refused')
    return { kind: 'refused', reason: 'live-attempt', message: `${lock.message}; a live attempt is never reconciled: run again once it has ended` };
  const reconciled: ReconciledAttempt[] = [];
  try {
    const opening = await openChain(paths.chain);
    if (opening.kind === 'unreadable') return { kind: 'failed', path: opening.path, message: opening.message, reconciled };
    if (opening.kind === 'broken') return { kind: 'refused', reason: 'chain-broken', message: `${opening.message}; nothing appended` };
    const concluded = new Set(opening.entries.flatMap((entry) => (entry.record.kind === 'outcome' ? [entry.record.intent] : [])));
    const dangling = opening.entries.filter(
      (entry): entry is ChainEntry & { record: IntentRecord } => entry.record.kind === 'intent' && isRunId(entry.record.runId) && !concluded.has(entry.digest),
    );
    let position: ChainPosition = { head: opening.head, nextSeq: opening.nextSeq, length: opening.length, torn: opening.torn };
    for (const intent of dangling) {
      const closed = await closeIntent(paths, target, intent, position);
      position = closed.position;
      reconciled.push(closed.reconciled);
    }
    return { kind: 'reconciled', target: target.path, chain: paths.chain, reconciled };
  } catch (error) {
    const done = reconciled.length === 0 ? 'nothing appended' : `${reconciled.length} outcome${reconciled.length === 1 ? '' : 's'} appended before it`;
    return {
      kind: 'failed',
      path: failedPath(error, paths.chain),
      message: `cannot record a supervisor-lost outcome (${(error as Error).message}); ${done}`,
      reconciled,
    };
  } finally {
    await lock.release();
  }
}

async function closeIntent(
  paths: ReturnType<typeof chainPaths>,
  target: ResolvedTarget,
  intent: ChainEntry & { record: IntentRecord },
  position: ChainPosition,
): Promise<{ position: ChainPosition; reconciled: ReconciledAttempt }> {
  const { runId, attempt } = intent.record;
  const names = attemptArtifactNames(runId, attempt);
  const survivors = survivorsOf(intent.record);
  const lost = lostAttemptResult(paths.directory, names, intent.record, survivors, new Date());
  // What the dead supervisor held back for its outcome, and its TMPDIR: freed as its own end would have.
  await releaseOutcomeReserve(outcomeReservePath(join(paths.directory, dirname(names.result))));
  await removeDeadAttemptTemporaryDirectory({
    pid: intent.record.supervisor.pid,
    host: hostname(),
    runId,
    attempt,
    since: intent.record.at,
    holding: 'attempt',
  });
  // Its supervisor died before the end of the attempt put the workspace's git back: done here, as it would have.
  const workspaceGit = await restoreLostWorkspaceGit(target, intent.record);
  const resultArtifact = await writingFile(join(paths.directory, names.result), () =>
    keepArtifact(paths.directory, names.result, `${JSON.stringify(lost.result, null, 2)}\n`),
  );
  const outcome: Omit<OutcomeRecord, 'prev' | 'seq' | 'format'> = {
    kind: 'outcome',
    at: new Date().toISOString(),
    runId,
    attempt,
    intent: intent.digest,
    outcome: lost.result.outcome,
    cause: lost.result.cause,
    refusalCount: lost.result.refusalCount,
    cost: lost.result.cost,
    timedOut: lost.result.timedOut,
    result: lost.result,
    // The workspace is not read: nothing vouches that what it holds now is what the attempt left.
    headCommit: 'not-recorded',
    workspaceDirty: 'not-recorded',
    artifacts: { stream: lost.stream, stderr: lost.stderr, result: resultArtifact },
    temporaryDirectory: 'removed',
    evidence: lost.evidence,
  };
  const appended = await writingFile(paths.chain, () => appendRecord(paths.chain, position, outcome));
  return {
    position: appended.position,
    reconciled: {
      runId,
      attempt,
      intentLine: intent.lineNumber,
      outcomeLine: appended.record.seq + 1,
      stream: lost.stream === 'not-recorded' ? 'not-found' : 'kept',
      stderr: lost.stderr === 'not-recorded' ? 'not-found' : 'kept',
      survivors,
      workspaceGit,
    },
  };
}

/** Processes of the attempt still alive, found by the tag its intent recorded; the supervisor that would have killed them is gone. */
function survivorsOf(intent: IntentRecord): number[] {
  const tag = intent.posture.environment.names.find((entry) => entry.name === ATTEMPT_TAG_VARIABLE)?.value;
  if (tag === undefined || tag === 'redacted') return [];
  return findAttemptProcesses(tag.recorded).sort((a, b) => a - b);
}
