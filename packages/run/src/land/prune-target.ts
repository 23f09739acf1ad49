import { existsSync } from 'node:fs';
import {
  appendRecord,
  chainPaths,
  isRunId,
  resolveTarget,
  runGit,
  targetDirectoryIn,
  runWorkspaceLocations,
  type ChainPaths,
  type ResolvedTarget,
  type ChainEntry,
  type PrunedAttempt,
  failedPath,
  openChainToAppend,
  underTargetLock,
  writingFile,
  stateDirectoryNotOwn,
  type OpenedChain,
} from '@statecraft/records';
import { removeRunWorkspace } from './remove-run-workspace.js';
import { isFinalVerdict, landingsIn } from '@statecraft/records';

type KeptWhy = 'not-concluded' | 'newer' | 'accepted' | 'landed-only-here';

export type Pruned =
  | { kind: 'pruned'; target: string; removed: PrunedAttempt[]; kept: { runId: string; why: KeptWhy }[]; record: { line: number; sha256: string } | 'none' }
  | { kind: 'refused'; reason: string; message: string }
  | { kind: 'failed'; path: string; message: string };

/**
 * `statecraft prune`: under the target's lock — so never while a supervisor, a
 * judge or a landing holds it — removes the worktree and branch of every run whose attempts all
 * concluded (each intent has its outcome), last recorded before `olderThanMs` ago; with
 * `keepAccepted`, not a run with an accepted attempt. A landed run's branch goes only while the
 * landed commit is in the branch it landed on: otherwise the run's branch may be its only reference,
 * and it stays. With `runId`, only that run is looked at. Records and kept files are never
 * touched; one prune record names what went.
 */
export async function pruneTarget(request: {
  home: string;
  target: string;
  olderThanMs: number;
  keepAccepted: boolean;
  /** Only this run (its whole id); every run when absent. */
  runId?: string;
  now?: number;
}): Promise<Pruned> {
  const resolution = await resolveTarget(request.target);
  if (resolution.kind === 'refused') return { kind: 'refused', reason: 'target', message: resolution.message };
  const target = resolution.target;
  const paths = chainPaths(targetDirectoryIn(request.home, target.key));
  if (!existsSync(paths.chain)) return { kind: 'pruned', target: target.path, removed: [], kept: [], record: 'none' };
  // The workspaces are removed from under the state directory: never through a link there.
  const notOwn = stateDirectoryNotOwn(target.path);
  if (notOwn !== undefined) return { kind: 'refused', reason: 'target', message: `${notOwn}; nothing removed` };
  return underTargetLock({
    paths,
    holder: { runId: 'prune', attempt: 1, holding: 'prune' },
    nothing: 'nothing removed',
    open: openChainToAppend,
    failed: (error) => ({ kind: 'failed', path: failedPath(error, paths.chain), message: `cannot prune or record the prune (${(error as Error).message})` }),
    work: (opening) => pruneUnderLock(request, target, paths, opening),
  });
}

/** What goes, under the lock, from the verified chain; then one prune record naming it. */
async function pruneUnderLock(
  request: { olderThanMs: number; keepAccepted: boolean; runId?: string; now?: number },
  target: ResolvedTarget,
  paths: ChainPaths,
  opening: OpenedChain,
): Promise<Pruned> {
  const cutoff = (request.now ?? Date.now()) - request.olderThanMs;
  const removed: PrunedAttempt[] = [];
  const kept: { runId: string; why: KeptWhy }[] = [];
  const landings = landingsIn(opening.entries);
  for (const [runId, run] of runsOf(opening.entries)) {
    if (request.runId !== undefined && runId !== request.runId) continue;
    const places = [];
    for (const place of runWorkspaceLocations(target.path, runId, run.attempts)) {
      if (existsSync(place.path) || (await runGit(target.path, ['rev-parse', '-q', '--verify', `refs/heads/${place.branch}`])).ok) places.push(place);
    }
    if (places.length === 0) continue;
    if (run.pending > 0) kept.push({ runId, why: 'not-concluded' });
    else if (Date.parse(run.last) > cutoff) kept.push({ runId, why: 'newer' });
    else if (request.keepAccepted && run.accepted) kept.push({ runId, why: 'accepted' });
    else {
      const ofRun = landings.filter((landing) => landing.runId === runId);
      let keepBranch = false;
      for (const landing of ofRun) {
        const inBranch = await runGit(target.path, ['merge-base', '--is-ancestor', landing.commit, landing.branch]);
        if (!inBranch.ok) keepBranch = true;
      }
      for (const place of places) {
        const done = await removeRunWorkspace(target.path, runId, place, keepBranch);
        if ('failed' in done)
          return { kind: 'failed', path: target.path, message: `${done.failed}; removed before it: ${describe(removed)}; nothing appended` };
        removed.push(done);
      }
      if (keepBranch) kept.push({ runId, why: 'landed-only-here' });
    }
  }
  if (removed.length === 0) return { kind: 'pruned', target: target.path, removed, kept, record: 'none' };
  const appended = await writingFile(paths.chain, () =>
    appendRecord(
      paths.chain,
      { head: opening.head, nextSeq: opening.nextSeq, length: opening.length, torn: opening.torn },
      { at: new Date().toISOString(), kind: 'prune', removed },
    ),
  );
  return { kind: 'pruned', target: target.path, removed, kept, record: { line: appended.record.seq + 1, sha256: appended.digest } };
}

function describe(removed: readonly PrunedAttempt[]): string {
  return removed.length === 0 ? 'none' : removed.map((entry) => entry.runId).join(', ');
}

/** Per run id (only those `run` makes): intents with no outcome yet, the time of its last record, whether an attempt stands accepted. */
function runsOf(entries: readonly ChainEntry[]): Map<string, { pending: number; last: string; accepted: boolean; attempts: number[] }> {
  const runs = new Map<string, { pending: number; last: string; accepted: boolean; attempts: number[] }>();
  const verdicts = new Map<string, string>();
  for (const { record } of entries) {
    if (!('runId' in record) || !isRunId(record.runId)) continue;
    const run = runs.get(record.runId) ?? { pending: 0, last: record.at, accepted: false, attempts: [] };
    run.last = record.at;
    if (record.kind === 'intent') {
      run.pending += 1;
      run.attempts.push(record.attempt);
    }
    if (record.kind === 'outcome') run.pending = Math.max(0, run.pending - 1);
    if (record.kind === 'acceptance') {
      const key = `${record.runId}/${record.attempt}`;
      const earlier = verdicts.get(key);
      if (!isFinalVerdict(earlier as never)) verdicts.set(key, record.verdict);
      if (verdicts.get(key) === 'accepted') run.accepted = true;
    }
    runs.set(record.runId, run);
  }
  return runs;
}
