import { join } from 'node:path';
import { sha256Hex } from '@statecraft/adapter';
import {
  readSigningKey,
  receiptStatement,
  signedBundlePath,
  SigningKeyProblem,
  signStatement,
  writeFileDurably,
  type Receipt,
  type SigningKey,
} from '@statecraft/records';
import { stateDirectoryNotOwn } from '@statecraft/records';
import type { BoundaryChoice } from '@statecraft/environment';
import {
  chainPaths,
  openChainForRun,
  resolveTarget,
  targetDirectoryIn,
  type AcceptanceRecord,
  type ChainPaths,
  type ResolvedTarget,
  type ChainEntry,
  type IntentRecord,
  type OutcomeRecord,
  type RunChainRecord,
} from '@statecraft/records';
import { targetInWritablePlace } from '@statecraft/run';
import { failedPath, writingFile } from '@statecraft/records';
import { readCandidateIsTip } from '@statecraft/records';
import { CHECKS_DIRECTORY } from './candidate-worktree.js';
import { describeEarlierFinalVerdict, findEarlierFinalVerdict } from '@statecraft/records';
import { findFreeOutputsDirectory } from './free-outputs-directory.js';
import { outcomeNotItsOwn } from './outcome-evidence-own.js';
import { judgeAttempt, type JudgeRequest } from './judge-attempt.js';
import { removeLeftoverCheckWorktrees } from './leftover-check-worktrees.js';
import { underTargetLock, type AppendUnderLock, type OpenedChain, type SerialAppender } from '@statecraft/records';

export interface AcceptRequest {
  home: string;
  target: string;
  runId: string;
  /** Default: the attempt the run's selection chose, else the run's latest attempt. */
  attempt?: number;
  checkDeadlineMs: number;
  suiteDeadlineMs: number;
  /** The operator's environment; only the allowlisted names are read from it (R5.1). */
  source: Readonly<Record<string, string | undefined>>;
  /** The protected evidence boundary the checks run inside (R12, R13.3); default on. */
  boundary?: BoundaryChoice;
  statecraftVersion: string;
  signal?: AbortSignal;
  hooks?: NonNullable<JudgeRequest['hooks']>;
  /** The chain of a run that holds the target's lock: judged without taking it, the record appended through it. */
  held?: SerialAppender;
}

export type Acceptance =
  | {
      kind: 'judged';
      entry: ChainEntry & { record: AcceptanceRecord };
      targetDirectory: string;
      target: string;
      branch: string;
      /** Whether the receipt's candidate is still the run branch's tip (R13.6), read beside the receipt's write and the append. */
      receiptState: 'current' | 'stale' | 'none';
    }
  | {
      kind: 'refused';
      reason:
        'target' | 'chain-broken' | 'unknown-run' | 'live-attempt' | 'no-outcome' | 'already-judged' | 'evidence-not-its-own' | 'environment' | 'boundary';
      message: string;
    }
  | { kind: 'failed'; path: string; message: string };

/**
 * `statecraft accept` (R13): under the target's lock, finds the attempt in a verified chain,
 * judges it — not-attempted unless it completed; else the suite read at the base, run over a
 * fresh worktree of the candidate — and appends the acceptance record, hash-linked, with the
 * receipt kept beside the chain when accepted. Refusals (a live attempt, a broken chain, no such
 * run, an outcome whose evidence is not its attempt's own, an attempt whose verdict is already
 * final) append nothing.
 */
export async function acceptAttempt(request: AcceptRequest): Promise<Acceptance> {
  // The key is read before anything is judged: a key file that cannot sign refuses the judgement
  // rather than leave a receipt unsigned that the operator asked to have signed.
  let signingKey: SigningKey | undefined;
  try {
    signingKey = await readSigningKey(request.home, request.source);
  } catch (error) {
    if (error instanceof SigningKeyProblem) return { kind: 'refused', reason: 'environment', message: `${error.message}; nothing judged, nothing appended` };
    throw error;
  }
  const resolution = await resolveTarget(request.target);
  if (resolution.kind === 'refused') return { kind: 'refused', reason: 'target', message: resolution.message };
  const target = resolution.target;
  // Before any git checks a worktree out there, as `run` refuses it: a repository an agent could have
  // written (an earlier boundary's managed path, an agent's workspace) carries filters git would run.
  const writable = await targetInWritablePlace(target, request.home);
  if (writable !== undefined) return { kind: 'refused', reason: 'target', message: writable.message.replace('nothing appended', 'nothing judged') };
  // The checks' worktrees are made, and a killed judge's removed, under the state directory: never through a link.
  const notOwn = stateDirectoryNotOwn(target.path);
  if (notOwn !== undefined) return { kind: 'refused', reason: 'target', message: `${notOwn}; nothing judged, nothing appended` };
  const paths = chainPaths(targetDirectoryIn(request.home, target.key));
  // The check worktree's removal, running beside the receipt and the append: done before the lock goes.
  const progress: { cleared?: Promise<void> | undefined; kept?: string | undefined } = {};
  return underTargetLock({
    paths,
    holder: { runId: request.runId, attempt: request.attempt ?? 1, holding: 'acceptance' },
    nothing: 'nothing judged',
    // Every link verified; only this run's intents and outcomes parsed whole (open-chain-for-run.ts).
    open: (chain) => openChainForRun(chain, request.runId),
    failed: (error) => {
      // Which file could not be written, and whether a receipt was already kept that no record names.
      const orphan =
        progress.kept === undefined
          ? ''
          : `; the receipt at ${progress.kept} was kept, but no record names it: it vouches for nothing (doctor names it; the next accept judges into a new directory)`;
      return {
        kind: 'failed',
        path: failedPath(error, paths.directory),
        message: `cannot judge or record the acceptance (${(error as Error).message})${orphan}`,
      };
    },
    beforeRelease: async () => {
      await progress.cleared;
    },
    work: (opening, append) => judgeUnderLock(request, target, paths, { opening, append }, progress, signingKey),
    ...(request.held === undefined ? {} : { held: request.held }),
  });
}

/** The judgement itself, under the lock, from the verified chain; `progress` says what the failure message and the release need. */
async function judgeUnderLock(
  request: AcceptRequest,
  target: ResolvedTarget,
  paths: ChainPaths,
  { opening, append }: { opening: OpenedChain<RunChainRecord>; append: AppendUnderLock },
  progress: { cleared?: Promise<void> | undefined; kept?: string | undefined },
  signingKey: SigningKey | undefined,
): Promise<Acceptance> {
  const found = findAttempt(opening.entries, request.runId, request.attempt);
  if (found.kind === 'refused') return { ...found, message: `${found.message} in ${paths.chain}; nothing judged, nothing appended` };
  const { intent, outcome } = found;
  // A linked worktree shares its repository's chain: the run is judged from the checkout it ran
  // in, whose agent workspaces the checks must not see and whose path the receipt names.
  if (intent.record.target.path !== target.path) {
    return {
      kind: 'refused',
      reason: 'target',
      message: `run ${request.runId} ran in ${intent.record.target.path}, not ${target.path}; judge it there: statecraft accept ${intent.record.target.path} ${request.runId}`,
    };
  }
  // A record is not an attempt: an outcome whose evidence is another attempt's, or that its own kept result does not bear out, is not judged (R13.1).
  const notItsOwn = outcomeNotItsOwn(paths.chain, paths.directory, intent, outcome);
  if (notItsOwn !== undefined) {
    const message = `run ${intent.record.runId} attempt ${intent.record.attempt}: ${notItsOwn}; nothing judged, nothing appended (statecraft doctor reports every such record)`;
    return { kind: 'refused', reason: 'evidence-not-its-own', message };
  }
  // A final verdict is not judged again (R13.4, R8.5): the way on is a new attempt.
  const earlier = findEarlierFinalVerdict(opening.entries, outcome.digest);
  if (earlier !== undefined) {
    const message = describeEarlierFinalVerdict(earlier, { target: target.path, runId: intent.record.runId, attempt: intent.record.attempt });
    return { kind: 'refused', reason: 'already-judged', message };
  }
  const previous = opening.entries.filter(
    (entry) => entry.record.kind === 'acceptance' && entry.record.runId === intent.record.runId && entry.record.attempt === intent.record.attempt,
  ).length;
  const outputsDirectory = await findFreeOutputsDirectory(paths.directory, intent.record.runId, intent.record.attempt, previous + 1);
  // Under the lock no other judge of this home runs: a worktree whose owner is dead was left by a `kill -9`.
  await removeLeftoverCheckWorktrees(target.path, CHECKS_DIRECTORY);
  const judgement = await judgeAttempt(
    { ...request, boundary: request.boundary ?? { kind: 'bwrap' } },
    { target: target.path, gitDirectory: target.commonDirectory, key: target.key, targetDirectory: paths.directory, outputsDirectory },
    { intent, outcome },
  );
  progress.cleared = judgement.cleared;
  if (judgement.kind === 'refused') return { kind: 'refused', reason: judgement.reason, message: `${judgement.message}; nothing appended` };
  if (judgement.kind === 'failed') return { kind: 'failed', path: judgement.path, message: judgement.message };
  // With a signing key the receipt says it is signed, and its signature is kept beside it.
  const judged =
    signingKey === undefined || judgement.judged.receipt === 'none'
      ? judgement.judged
      : { ...judgement.judged, receipt: { ...judgement.judged.receipt, signature: 'sigstore-bundle' as const } };
  // A read-only git call that needs only the candidate: it runs while the receipt and the record are made durable.
  const receiptState =
    judged.receipt === 'none' ? Promise.resolve('none' as const) : readCandidateIsTip(target.path, intent.record.branch, judged.receipt.candidate.commit);
  const receiptPath = join(paths.directory, outputsDirectory, 'receipt.json');
  const receiptFile =
    judged.receipt === 'none'
      ? ('none' as const)
      : await writingFile(receiptPath, () =>
          keepReceipt(paths.directory, `${outputsDirectory}/receipt.json`, judged.receipt as Exclude<typeof judged.receipt, 'none'>),
        );
  progress.kept = receiptFile === 'none' ? undefined : receiptPath;
  const receiptSignature =
    signingKey === undefined || judged.receipt === 'none'
      ? undefined
      : await writingFile(signedBundlePath(receiptPath), () =>
          keepReceiptSignature(paths.directory, `${outputsDirectory}/receipt.sigstore.json`, judged.receipt as Receipt, signingKey),
        );
  const appended = await writingFile(paths.chain, () =>
    append({ at: new Date().toISOString(), ...judged, receiptFile, ...(receiptSignature === undefined ? {} : { receiptSignature }) }),
  );
  const record = appended.record as AcceptanceRecord;
  return {
    kind: 'judged',
    entry: { record, digest: appended.digest, lineNumber: record.seq + 1 },
    targetDirectory: paths.directory,
    target: target.path,
    branch: intent.record.branch,
    receiptState: await receiptState,
  };
}

type Found =
  | { kind: 'found'; intent: ChainEntry & { record: IntentRecord }; outcome: ChainEntry & { record: OutcomeRecord } }
  | { kind: 'refused'; reason: 'unknown-run' | 'no-outcome'; message: string };

function findAttempt(entries: readonly ChainEntry<RunChainRecord>[], runId: string, attempt: number | undefined): Found {
  // Whole records, not summaries: openChainForRun reads this run's intents and outcomes whole.
  const intents = entries.filter((entry): entry is ChainEntry & { record: IntentRecord } => entry.record.kind === 'intent' && entry.record.runId === runId);
  if (intents.length === 0) return { kind: 'refused', reason: 'unknown-run', message: `run ${runId} has no record` };
  // A run of several attempts is judged, by default, at the attempt its selection chose: the one `land <run>` takes.
  const selection = entries.findLast((entry) => entry.record.kind === 'selection' && entry.record.runId === runId)?.record;
  const wanted = attempt ?? (selection !== undefined && 'chosen' in selection ? selection.chosen.attempt : undefined);
  const intent = wanted === undefined ? intents.at(-1) : intents.find((entry) => entry.record.attempt === wanted);
  if (intent === undefined)
    return {
      kind: 'refused',
      reason: 'unknown-run',
      message: `run ${runId} has no attempt ${String(wanted)} (attempts: ${intents.map((entry) => entry.record.attempt).join(', ')})`,
    };
  const outcome = entries.find(
    (entry): entry is ChainEntry & { record: OutcomeRecord } =>
      entry.record.kind === 'outcome' && entry.record.runId === runId && entry.record.intent === intent.digest,
  );
  if (outcome === undefined)
    return {
      kind: 'refused',
      reason: 'no-outcome',
      message: `run ${runId} attempt ${intent.record.attempt} has no outcome (its supervisor never concluded it)`,
    };
  return { kind: 'found', intent, outcome };
}

/**
 * The receipt's signature, kept beside it: an in-toto statement over the candidate's commit and
 * tree whose predicate is the receipt, in a Sigstore bundle, written durably, with its digest.
 */
async function keepReceiptSignature(
  targetDirectory: string,
  relativePath: string,
  receipt: Receipt,
  key: SigningKey,
): Promise<{ path: string; sha256: string; bytes: number }> {
  const text = `${JSON.stringify(await signStatement(key, receiptStatement(receipt)), null, 2)}\n`;
  await writeFileDurably(join(targetDirectory, relativePath), text);
  return { path: relativePath, sha256: sha256Hex(text), bytes: Buffer.byteLength(text) };
}

/** The receipt kept as a file beside the chain (R13.6), written durably, with its digest. */
async function keepReceipt(targetDirectory: string, relativePath: string, receipt: unknown): Promise<{ path: string; sha256: string; bytes: number }> {
  const text = `${JSON.stringify(receipt, null, 2)}\n`;
  await writeFileDurably(join(targetDirectory, relativePath), text);
  return { path: relativePath, sha256: sha256Hex(text), bytes: Buffer.byteLength(text) };
}
