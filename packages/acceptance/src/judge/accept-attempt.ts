import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ATTEMPT_TAG_VARIABLE, chooseContainment, newAttemptTag, readRecordedCoverage, sha256Hex, writeFileDurably } from '@statecraft/adapter';
import { constructEnvironment, selectPassedNames } from '@statecraft/environment';
import {
  acquireRepositoryLock,
  appendRecord,
  chainPaths,
  openChain,
  resolveTarget,
  targetDirectoryIn,
  type AcceptanceRecord,
  type ChainEntry,
  type IntentRecord,
  type OutcomeRecord,
} from '@statecraft/run';
import { makeCandidateWorktree, readWorktreeAfterSuite, removeCandidateWorktree } from './candidate-worktree.js';
import { decideAfterSuite, decided, notAttempted, type Decision } from './decide-verdict.js';
import { mintReceipt } from './mint-receipt.js';
import { runSuite, type SuiteHooks, type SuiteRun } from './run-suite.js';
import { isUnderAuthority, readSuiteAtBase } from './suite-at-base.js';

export interface AcceptRequest {
  home: string;
  target: string;
  runId: string;
  /** Default: the run's latest attempt. */
  attempt?: number;
  checkDeadlineMs: number;
  suiteDeadlineMs: number;
  /** The operator's environment; only the allowlisted names are read from it (R5.1). */
  source: Readonly<Record<string, string | undefined>>;
  statecraftVersion: string;
  signal?: AbortSignal;
  hooks?: SuiteHooks & { onJudging?: (what: { runId: string; attempt: number; checks: number }) => void };
}

export type Acceptance =
  | { kind: 'judged'; entry: ChainEntry & { record: AcceptanceRecord }; targetDirectory: string; target: string; branch: string }
  | { kind: 'refused'; reason: 'target' | 'chain-broken' | 'unknown-run' | 'live-attempt' | 'no-outcome'; message: string }
  | { kind: 'failed'; path: string; message: string };

/**
 * `statecraft accept` (R13): under the target's lock, finds the attempt in a verified chain,
 * judges it — not-attempted unless it completed; else the suite read at the base, run over a
 * fresh worktree of the candidate — and appends the acceptance record, hash-linked, with the
 * receipt kept beside the chain when accepted. Refusals (a live attempt, a broken chain, no such
 * run) append nothing.
 */
export async function acceptAttempt(request: AcceptRequest): Promise<Acceptance> {
  const resolution = await resolveTarget(request.target);
  if (resolution.kind === 'refused') return { kind: 'refused', reason: 'target', message: resolution.message };
  const target = resolution.target;
  const paths = chainPaths(targetDirectoryIn(request.home, target.key));
  const lock = await acquireRepositoryLock(paths.lock, { runId: request.runId, attempt: request.attempt ?? 1 });
  if (lock.kind === 'refused') return { kind: 'refused', reason: 'live-attempt', message: `${lock.message}; nothing judged, nothing appended` };
  try {
    const opening = await openChain(paths.chain);
    if (opening.kind === 'unreadable') return { kind: 'failed', path: opening.path, message: opening.message };
    if (opening.kind === 'broken') return { kind: 'refused', reason: 'chain-broken', message: opening.message };
    const found = findAttempt(opening.entries, request.runId, request.attempt);
    if (found.kind === 'refused') return { ...found, message: `${found.message} in ${paths.chain}; nothing judged, nothing appended` };
    const { intent, outcome } = found;
    const previous = opening.entries.filter(
      (entry) => entry.record.kind === 'acceptance' && entry.record.runId === intent.record.runId && entry.record.attempt === intent.record.attempt,
    ).length;
    const outputsDirectory = `attempts/${intent.record.runId}/${intent.record.attempt}/acceptance-${previous + 1}`;
    const judged = await judge(request, { target: target.path, key: target.key, targetDirectory: paths.directory, outputsDirectory }, intent, outcome);
    const receiptFile = judged.receipt === 'none' ? ('none' as const) : await keepReceipt(paths.directory, `${outputsDirectory}/receipt.json`, judged.receipt);
    const appended = await appendRecord(
      paths.chain,
      { head: opening.head, nextSeq: opening.nextSeq, length: opening.length, torn: opening.torn },
      { at: new Date().toISOString(), ...judged, receiptFile },
    );
    const record = appended.record as AcceptanceRecord;
    return {
      kind: 'judged',
      entry: { record, digest: appended.digest, lineNumber: record.seq + 1 },
      targetDirectory: paths.directory,
      target: target.path,
      branch: intent.record.branch,
    };
  } catch (error) {
    return { kind: 'failed', path: paths.directory, message: `cannot judge or record the acceptance (${(error as Error).message})` };
  } finally {
    await lock.release();
  }
}

type Found =
  | { kind: 'found'; intent: ChainEntry & { record: IntentRecord }; outcome: ChainEntry & { record: OutcomeRecord } }
  | { kind: 'refused'; reason: 'unknown-run' | 'no-outcome'; message: string };

function findAttempt(entries: readonly ChainEntry[], runId: string, attempt: number | undefined): Found {
  const intents = entries.filter((entry): entry is ChainEntry & { record: IntentRecord } => entry.record.kind === 'intent' && entry.record.runId === runId);
  if (intents.length === 0) return { kind: 'refused', reason: 'unknown-run', message: `run ${runId} has no record` };
  const intent = attempt === undefined ? intents.at(-1) : intents.find((entry) => entry.record.attempt === attempt);
  if (intent === undefined)
    return {
      kind: 'refused',
      reason: 'unknown-run',
      message: `run ${runId} has no attempt ${String(attempt)} (attempts: ${intents.map((entry) => entry.record.attempt).join(', ')})`,
    };
  const outcome = entries.find(
    (entry): entry is ChainEntry & { record: OutcomeRecord } => entry.record.kind === 'outcome' && entry.record.intent === intent.digest,
  );
  if (outcome === undefined)
    return {
      kind: 'refused',
      reason: 'no-outcome',
      message: `run ${runId} attempt ${intent.record.attempt} has no outcome (its supervisor never concluded it)`,
    };
  return { kind: 'found', intent, outcome };
}

type Judged = Omit<AcceptanceRecord, 'prev' | 'seq' | 'format' | 'at' | 'receiptFile'>;
interface Where {
  target: string;
  key: string;
  targetDirectory: string;
  outputsDirectory: string;
}

async function judge(
  request: AcceptRequest,
  where: Where,
  intent: ChainEntry & { record: IntentRecord },
  outcome: ChainEntry & { record: OutcomeRecord },
): Promise<Judged> {
  const o = outcome.record;
  const base: Judged = {
    kind: 'acceptance',
    runId: o.runId,
    attempt: o.attempt,
    outcome: outcome.digest,
    verdict: 'no-acceptance',
    reason: 'no-candidate',
    candidate: 'not-recorded',
    explanation: 'not judged',
    attemptRefusalCount: 'not-recorded',
    suite: 'not-recorded',
    checks: [],
    checksNotRun: 0,
    authority: 'not-recorded',
    afterSuite: 'not-recorded',
    policyDigest: 'not-recorded',
    deadlines: { checkMs: request.checkDeadlineMs, suiteMs: request.suiteDeadlineMs },
    containment: 'not-recorded',
    environment: 'not-recorded',
    receipt: 'none',
  };
  const as = (decision: Decision, more: Partial<Judged> = {}): Judged => ({ ...base, ...more, ...decision });
  if (o.outcome !== 'completed') return as(notAttempted(o.outcome, o.refusalCount), o.outcome === 'refused' ? { attemptRefusalCount: o.refusalCount } : {});
  const candidate = o.candidate;
  if (candidate === undefined || candidate === 'not-recorded' || 'notIdentified' in candidate) {
    const why =
      candidate !== undefined && candidate !== 'not-recorded'
        ? candidate.notIdentified
        : 'the outcome record names no candidate (written before acceptance existed)';
    return as(decided('no-candidate', `no candidate to judge: ${why}`));
  }
  const coverage = readRecordedCoverage(intent.record.posture.coverage);
  const specId = coverage.kind === 'read' && 'spec' in coverage.coverage && coverage.coverage.spec !== 'none' ? coverage.coverage.spec.id : 'none';
  const suite = await readSuiteAtBase({ repository: where.target, baseCommit: intent.record.baseCommit, specId });
  if (suite.kind === 'unreadable')
    return as(decided('policy-unreadable', `the suite or the policy could not be read at the base: ${suite.message}`), { candidate });
  const touched = candidate.changedPaths.filter((path) => suite.authority.paths.some((entry) => isUnderAuthority(path, entry)));
  const known: Partial<Judged> = { candidate, suite: suite.suite, authority: { paths: suite.authority.paths, touched }, policyDigest: suite.policyDigest };
  if (suite.suite === 'none')
    return as(
      decided(
        'no-suite',
        `no suite at the base ${intent.record.baseCommit}: no spec with Verification commands, and no "acceptance.checks" in .statecraft/environment.json`,
      ),
      known,
    );
  request.hooks?.onJudging?.({ runId: o.runId, attempt: o.attempt, checks: suite.suite.commands.length });

  const worktree = await makeCandidateWorktree(where.target, o.runId, o.attempt, candidate.commit);
  if (worktree.kind === 'failed') return as(decided('candidate-unavailable', worktree.message), { ...known, checksNotRun: suite.suite.commands.length });
  const temporaryDirectory = await mkdtemp(join(tmpdir(), 'statecraft-checks-'));
  const attemptTag = newAttemptTag(o.runId, o.attempt);
  try {
    // The same construction as the adapter's (R5.1): the allowlist, never a credential family.
    const selection = selectPassedNames({ source: request.source, adapterPass: [], operatorPass: [] });
    if (selection.kind === 'refused') throw new Error(selection.message);
    const environment = constructEnvironment(selection, {
      runId: o.runId,
      attempt: o.attempt,
      temporaryDirectory,
      extra: [{ name: ATTEMPT_TAG_VARIABLE, value: attemptTag, why: 'finds every process of the checks, including ones that left their group (R7.3)' }],
      // The checks run under the containment the supervisor chooses (probed once, cached): its residuals are theirs.
      containment: (await chooseContainment('auto')).containment.mechanism,
    });
    const ran: SuiteRun = await runSuite({
      cwd: worktree.path,
      commands: suite.suite.commands,
      environment: environment.variables,
      attemptTag,
      checkDeadlineMs: request.checkDeadlineMs,
      suiteDeadlineMs: request.suiteDeadlineMs,
      targetDirectory: where.targetDirectory,
      outputsDirectory: where.outputsDirectory,
      ...(request.signal === undefined ? {} : { signal: request.signal }),
      ...(request.hooks === undefined ? {} : { hooks: request.hooks }),
    });
    const after = await readWorktreeAfterSuite(worktree.path);
    const afterSuite =
      'failed' in after ? ('not-recorded' as const) : { head: after.head, headMoved: after.head !== candidate.commit, dirtyPaths: after.dirtyPaths };
    const decision = decideAfterSuite({
      end: ran.end,
      checks: ran.checks,
      checksNotRun: ran.checksNotRun,
      touched,
      after: afterSuite === 'not-recorded' ? (after as { failed: string }) : afterSuite,
    });
    const judged = as(decision, {
      ...known,
      checks: ran.checks,
      checksNotRun: ran.checksNotRun,
      afterSuite,
      containment: ran.containment,
      environment: environment.record,
    });
    if (decision.verdict !== 'accepted') return judged;
    return {
      ...judged,
      receipt: mintReceipt({
        where,
        intent,
        outcome,
        candidate,
        checks: ran.checks,
        policyDigest: suite.policyDigest,
        statecraftVersion: request.statecraftVersion,
      }),
    };
  } finally {
    await removeCandidateWorktree(where.target, worktree.path);
    await rm(temporaryDirectory, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** The receipt kept as a file beside the chain (R13.6), written durably, with its digest. */
async function keepReceipt(targetDirectory: string, relativePath: string, receipt: unknown): Promise<{ path: string; sha256: string; bytes: number }> {
  const text = `${JSON.stringify(receipt, null, 2)}\n`;
  await writeFileDurably(join(targetDirectory, relativePath), text);
  return { path: relativePath, sha256: sha256Hex(text), bytes: Buffer.byteLength(text) };
}
