import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Hex } from '@statecraft/adapter';
import {
  chainPaths,
  resolveTarget,
  targetDirectoryIn,
  type AcceptanceRecord,
  type ChainPaths,
  type ResolvedTarget,
  type ChainEntry,
  type LandRecord,
  failedPath,
  openChainToAppend,
  underTargetLock,
  attemptWorkspaceLocation,
  workspaceLocation,
  type OpenedChain,
} from '@statecraft/records';
import { landAndRecord } from './land-and-record.js';
import { readCandidateIsTip, isFinalVerdict, landingsIn, readLandedIsReachable } from '@statecraft/records';

export type Landed =
  | { kind: 'landed'; target: string; record: LandRecord; line: number; sha256: string }
  | { kind: 'refused'; reason: string; message: string }
  | { kind: 'failed'; path: string; message: string };

/**
 * `statecraft land`: under the target's lock, the attempt's final acceptance must
 * be `accepted`, its receipt file as the record sealed it and current (R13.6); its candidate is then
 * brought into the operator's branch (land-commit.ts) and a land record appended naming the
 * acceptance line, the receipt and the new commit. Every refusal changes nothing and appends nothing.
 */
export async function landAttempt(request: { home: string; target: string; runId: string; attempt?: number; squash: boolean }): Promise<Landed> {
  const resolution = await resolveTarget(request.target);
  if (resolution.kind === 'refused') return { kind: 'refused', reason: 'target', message: resolution.message };
  const target = resolution.target;
  const paths = chainPaths(targetDirectoryIn(request.home, target.key));
  return underTargetLock({
    paths,
    holder: { runId: request.runId, attempt: request.attempt ?? 1, holding: 'land' },
    nothing: 'nothing landed',
    open: openChainToAppend,
    failed: (error) => ({ kind: 'failed', path: failedPath(error, paths.chain), message: `cannot land or record the landing (${(error as Error).message})` }),
    work: (opening) => landUnderLock(request, target, paths, opening),
  });
}

/** The landing itself, under the lock, from the verified chain: every refusal before anything moves. */
async function landUnderLock(
  request: { runId: string; attempt?: number; squash: boolean },
  target: ResolvedTarget,
  paths: ChainPaths,
  opening: OpenedChain,
): Promise<Landed> {
  const found = findAcceptance(opening.entries, request.runId, request.attempt);
  if (typeof found === 'string') return { kind: 'refused', reason: 'not-accepted', message: `${found}; nothing landed` };
  const { record: acceptance } = found;
  if (acceptance.receipt === 'none' || acceptance.receiptFile === 'none')
    return { kind: 'refused', reason: 'not-accepted', message: 'the acceptance holds no receipt; nothing landed' };
  const receiptFile = acceptance.receiptFile;
  const receiptPath = join(paths.directory, receiptFile.path);
  let kept: string;
  try {
    kept = sha256Hex(readFileSync(receiptPath));
  } catch (error) {
    return {
      kind: 'refused',
      reason: 'receipt-changed',
      message: `${receiptPath}: the receipt cannot be read (${(error as Error).message}); nothing landed`,
    };
  }
  if (kept !== acceptance.receiptFile.sha256)
    return {
      kind: 'refused',
      reason: 'receipt-changed',
      message: `${receiptPath}: not the receipt the acceptance sealed (statecraft doctor names it); nothing landed`,
    };
  const candidate = acceptance.receipt.candidate.commit;
  const branch = attemptBranch(opening.entries, acceptance.runId, acceptance.attempt);
  // Landed already, and still there: a second landing would only make an empty commit.
  if (await readLandedIsReachable(target.path, landingsIn(opening.entries), acceptance.runId, acceptance.attempt, candidate))
    return {
      kind: 'refused',
      reason: 'already-landed',
      message: `run ${acceptance.runId} attempt ${acceptance.attempt} is already landed; nothing landed`,
    };
  if ((await readCandidateIsTip(target.path, branch, candidate)) !== 'current')
    return {
      kind: 'refused',
      reason: 'stale',
      message: `the receipt of run ${acceptance.runId} attempt ${acceptance.attempt} is stale: ${branch} no longer points at its candidate ${candidate}; nothing landed`,
    };
  const how = request.squash ? 'Squash' : 'Merge';
  const message = `${how} statecraft run ${acceptance.runId} attempt ${acceptance.attempt}\n\nAccepted by statecraft; receipt sha256 ${acceptance.receiptFile.sha256}.\n`;
  return landAndRecord({
    target: target.path,
    paths,
    opening,
    candidate,
    squash: request.squash,
    message,
    runId: acceptance.runId,
    attempt: acceptance.attempt,
    acceptance: found.digest,
    receipt: { path: receiptFile.path, sha256: receiptFile.sha256 },
  });
}

/**
 * The attempt's branch, as its intent names it: the run's own, or, for an attempt started beside
 * others, its own `<run>-<n>` (workspace-location.ts). Only these names: a record naming another
 * branch is not followed, the run's own is read (and the receipt is stale against it).
 */
function attemptBranch(entries: readonly ChainEntry[], runId: string, attempt: number): string {
  const intent = entries.find((entry) => entry.record.kind === 'intent' && entry.record.runId === runId && entry.record.attempt === attempt);
  const own = attemptWorkspaceLocation('/', runId, attempt).branch;
  return intent?.record.kind === 'intent' && intent.record.branch === own ? own : workspaceLocation('/', runId).branch;
}

/**
 * The attempt `land <run>` takes when none is named: the one the run's selection chose; for a run
 * of one attempt and its retries, its latest. A run that started several attempts together and
 * has no selection (its supervisor was stopped first) names none: the operator picks.
 */
function defaultAttempt(entries: readonly ChainEntry[], runId: string, intents: readonly { attempt: number; branch: string }[]): number | string {
  const selection = entries.findLast((entry) => entry.record.kind === 'selection' && entry.record.runId === runId);
  if (selection?.record.kind === 'selection') return selection.record.chosen.attempt;
  const own = workspaceLocation('/', runId).branch;
  if (intents.some((intent) => intent.branch !== own))
    return `run ${runId} started ${intents.length} attempts together and chose none of them (no selection was recorded); name one with --attempt <n>`;
  return intents.at(-1)?.attempt ?? 1;
}

/** The attempt's acceptance that stands (its first final verdict, else its latest), or why there is none to land. */
export function findAcceptance(
  entries: readonly ChainEntry[],
  runId: string,
  attempt: number | undefined,
): (ChainEntry & { record: AcceptanceRecord }) | string {
  const intents = entries.flatMap((entry) => (entry.record.kind === 'intent' && entry.record.runId === runId ? [entry.record] : []));
  if (intents.length === 0) return `run ${runId} has no record`;
  const wanted = attempt ?? defaultAttempt(entries, runId, intents);
  if (typeof wanted === 'string') return wanted;
  if (!intents.some((intent) => intent.attempt === wanted)) return `run ${runId} has no attempt ${String(wanted)}`;
  const ofAttempt = entries.filter(
    (entry): entry is ChainEntry & { record: AcceptanceRecord } =>
      entry.record.kind === 'acceptance' && entry.record.runId === runId && entry.record.attempt === wanted,
  );
  const standing = ofAttempt.find((entry) => isFinalVerdict(entry.record.verdict)) ?? ofAttempt.at(-1);
  if (standing === undefined) return `run ${runId} attempt ${String(wanted)} was never judged: statecraft accept it first`;
  if (standing.record.verdict !== 'accepted')
    return `run ${runId} attempt ${String(wanted)} is ${standing.record.verdict} (${standing.record.reason}), not accepted: only accepted work is landed`;
  return standing;
}
