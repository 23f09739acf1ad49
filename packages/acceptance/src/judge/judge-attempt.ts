import { readRecordedCoverage } from '@statecraft/adapter';
import type { BoundaryChoice } from '@statecraft/environment';
import type { AcceptanceRecord, Candidate, ChainEntry, IntentRecord, OutcomeRecord } from '@statecraft/records';
import { STATE_DIRECTORY } from '@statecraft/records';
import { withAgentWorkspacesHidden } from './agent-workspaces-hidden.js';
import { findAuthorityCheckedOutOtherwise } from './authority-checked-out.js';
import { withAuthorityReadOnly } from './authority-read-only.js';
import {
  makeCandidateWorktree,
  readWorktreeAfterSuite,
  removeCandidateWorktree,
  removeIgnoredPaths,
  removeMadeWorktree,
  type MadeWorktree,
} from './candidate-worktree.js';
import { emptyForNextCheck, prepareCheckSandbox, type CheckSandbox, type CheckSandboxRequest, type CheckSandboxSetup } from './check-sandbox.js';
import { removeCheckTemporaryDirectory } from './check-temporary-directory.js';
import { readWorktreeShape, restoreWorktreeShape } from './worktree-shape.js';
import { changedNothing, checkedOutOtherwise, decideAfterSuite, decideBeforeSuite, decided, notAttempted, type Decision } from './decide-verdict.js';
import { findLinksOutsideCandidate } from './links-outside-candidate.js';
import { mintReceipt } from './mint-receipt.js';
import { runSuite, type SuiteHooks, type SuiteRun } from './run-suite.js';
import { readSuiteAtBase, touchesAuthority, type SuiteReading } from './suite-at-base.js';

/** What judging one attempt needs beyond the chain: deadlines, the operator's environment and boundary choice. */
export interface JudgeRequest {
  home: string;
  checkDeadlineMs: number;
  suiteDeadlineMs: number;
  source: Readonly<Record<string, string | undefined>>;
  boundary: BoundaryChoice;
  statecraftVersion: string;
  signal?: AbortSignal;
  hooks?: SuiteHooks & { onJudging?: (what: { runId: string; attempt: number; checks: number }) => void };
}

/** The acceptance record less what the append supplies (links, time, the receipt file). */
type Judged = Omit<AcceptanceRecord, 'prev' | 'seq' | 'format' | 'at' | 'receiptFile'>;

/**
 * A judgement, or the refusal that runs no check and appends nothing (the sandbox could not be set
 * up, R12). `cleared`: the check worktree's and TMPDIR's removal, started once the verdict was read
 * and left to run beside the append; the caller awaits it before releasing the lock.
 */
export type Judgement = (
  | { kind: 'judged'; judged: Judged }
  | { kind: 'refused'; reason: 'environment' | 'boundary'; message: string }
  | { kind: 'failed'; path: string; message: string }
) & {
  cleared?: Promise<void>;
};

export interface Where {
  target: string;
  /** The target's git directory, which the checks' git reads (bound back read-only when a hidden home holds it). */
  gitDirectory?: string;
  key: string;
  targetDirectory: string;
  outputsDirectory: string;
}

type Attempt = { intent: ChainEntry & { record: IntentRecord }; outcome: ChainEntry & { record: OutcomeRecord } };
type ReadSuite = Extract<SuiteReading, { kind: 'read' }>;
type As = (decision: Decision, more?: Partial<Judged>) => Judgement;

/**
 * Judges one concluded attempt (R13), in steps: not-attempted unless it completed; its candidate,
 * not-attempted too when it holds the very tree the attempt started with (it changed nothing); the
 * suite and the policy read at the base, and the candidate's links; then, unless a link leaves the
 * candidate's tree, the suite run over a fresh worktree of the candidate inside the checks'
 * sandbox, and the verdict decided from how it ended.
 */
export async function judgeAttempt(request: JudgeRequest, where: Where, attempt: Attempt): Promise<Judgement> {
  const o = attempt.outcome.record;
  const blank = blankJudgement(request, attempt.outcome);
  const as: As = (decision, more = {}) => ({ kind: 'judged', judged: { ...blank, ...more, ...decision } });
  if (o.outcome !== 'completed') return as(notAttempted(o.outcome, o.refusalCount), o.outcome === 'refused' ? { attemptRefusalCount: o.refusalCount } : {});
  const candidate = judgedCandidate(o);
  if ('why' in candidate) return as(decided('no-candidate', `no candidate to judge: ${candidate.why}`));
  // Nothing of its own to judge; a record from before the start was recorded (`not-recorded`) is judged as it was.
  if (candidate.changedSinceStart === 0) return as(changedNothing(candidate, { target: where.target, runId: o.runId }), { candidate });
  // The suite at the base and the candidate's worktree at once: neither reads the other, and a
  // worktree made for a suite that turns out absent is removed again (the rare path pays). The
  // checks' sandbox — its TMPDIR and the boundary's probe — needs only the worktree's directory,
  // so it is set up while the candidate is checked out and the suite read; it is consulted only
  // once a suite is known to run over a worktree that was made.
  let preparing: Promise<CheckSandboxSetup | undefined> = Promise.resolve(undefined);
  const making = makeCandidateWorktree(where.target, o.runId, o.attempt, candidate.commit, {
    onAdded: (path, added) => {
      preparing = prepareCheckSandbox({ ...sandboxRequest(request, o, path, where.gitDirectory), worktreeReady: added });
      // Marked handled: it is awaited below on every path, and a rejection meanwhile must not be fatal.
      preparing.catch(() => undefined);
    },
  });
  // The candidate's links, read from git beside them: one ls-tree, and a cat-file only when it holds links.
  const [suite, worktree, links] = await Promise.all([
    readSuiteAtBase({ repository: where.target, baseCommit: attempt.intent.record.baseCommit, specId: recordedSpecId(attempt.intent.record) }),
    making,
    findLinksOutsideCandidate(where.target, candidate.commit),
  ]);
  const withoutWorktree = async (judgement: Judgement): Promise<Judgement> => {
    await discardSandbox(preparing);
    if (worktree.kind === 'made') await removeCandidateWorktree(where.target, worktree.path);
    return judgement;
  };
  if (suite.kind === 'unreadable')
    return withoutWorktree(as(decided('policy-unreadable', `the suite or the policy could not be read at the base: ${suite.message}`), { candidate }));
  const touched = candidate.changedPaths.filter((path) => suite.authority.paths.some((entry) => touchesAuthority(path, entry)));
  const known: Partial<Judged> = { candidate, suite: suite.suite, authority: { paths: suite.authority.paths, touched }, policyDigest: suite.policyDigest };
  if (suite.suite === 'none') {
    const explanation = `no suite at the base ${attempt.intent.record.baseCommit}: no spec with Verification commands, and no "acceptance.checks" in .statecraft/environment.json`;
    return withoutWorktree(as(decided('no-suite', explanation), known));
  }
  const checks = suite.suite.commands.length;
  if (worktree.kind === 'failed') return withoutWorktree(as(decided('candidate-unavailable', worktree.message), { ...known, checksNotRun: checks }));
  if ('failed' in links) return withoutWorktree(as(decided('candidate-unavailable', links.failed), { ...known, checksNotRun: checks }));
  const stateEntries = candidate.changedPaths.filter((path) => touchesAuthority(path, STATE_DIRECTORY));
  const before = decideBeforeSuite({ touched, links, stateEntries, checks });
  if (before !== undefined) return withoutWorktree(as(before, { ...known, checksNotRun: checks }));
  const converted = touched.length > 0 ? [] : await findAuthorityCheckedOutOtherwise(worktree.path, suite.authority.atBase);
  if (converted.length > 0) return withoutWorktree(as(checkedOutOtherwise(converted, checks), { ...known, checksNotRun: checks }));
  request.hooks?.onJudging?.({ runId: o.runId, attempt: o.attempt, checks });
  const sandbox = preparing as Promise<CheckSandboxSetup>;
  return runSuiteOverCandidate(request, where, attempt, { candidate, suite, touched, known, as, worktree, sandbox });
}

function sandboxRequest(request: JudgeRequest, outcome: OutcomeRecord, worktree: string, gitDirectory: string | undefined): CheckSandboxRequest {
  return {
    runId: outcome.runId,
    attempt: outcome.attempt,
    worktree,
    productHome: request.home,
    choice: request.boundary,
    source: request.source,
    ...(gitDirectory === undefined ? {} : { gitDirectory }),
  };
}

/** A sandbox set up for a suite that is not run after all: its TMPDIR goes (a refused one left none). */
async function discardSandbox(preparing: Promise<CheckSandboxSetup | undefined>): Promise<void> {
  const setup = await preparing.catch(() => undefined);
  if (setup?.kind === 'ready') await removeCheckTemporaryDirectory(setup.sandbox.temporaryDirectory);
}

/** Every field at its "nothing judged" value; each step fills in what it learnt. */
function blankJudgement(request: JudgeRequest, outcome: ChainEntry & { record: OutcomeRecord }): Judged {
  return {
    kind: 'acceptance',
    runId: outcome.record.runId,
    attempt: outcome.record.attempt,
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
    boundary: 'not-recorded',
    receipt: 'none',
  };
}

/** The candidate the outcome record names (R13.2), or why there is none to judge. */
function judgedCandidate(outcome: OutcomeRecord): Candidate | { why: string } {
  const candidate = outcome.candidate;
  if (candidate === undefined || candidate === 'not-recorded') return { why: 'the outcome record names no candidate (written before acceptance existed)' };
  if ('notIdentified' in candidate) return { why: candidate.notIdentified };
  return candidate;
}

/** The spec the run recorded in its launch coverage (R9.4), or `none`. */
function recordedSpecId(intent: IntentRecord): string {
  const coverage = readRecordedCoverage(intent.posture.coverage);
  return coverage.kind === 'read' && 'spec' in coverage.coverage && coverage.coverage.spec !== 'none' ? coverage.coverage.spec.id : 'none';
}

/** What is known of the judging before the suite runs: the candidate, the suite read at the base, the authority paths it touched, the worktree. */
interface JudgedBeforeSuite {
  candidate: Candidate;
  suite: ReadSuite;
  touched: string[];
  known: Partial<Judged>;
  as: As;
  worktree: MadeWorktree;
}

/**
 * The suite over the fresh worktree of the candidate (R13.3), inside the checks' sandbox. The
 * worktree and the sandbox's TMPDIR are removed whatever happens: awaited on a refusal or an
 * error, else left to run beside the append (`cleared`).
 */
async function runSuiteOverCandidate(
  request: JudgeRequest,
  where: Where,
  attempt: Attempt,
  judged: JudgedBeforeSuite & { sandbox: Promise<CheckSandboxSetup> },
): Promise<Judgement> {
  const { suite } = judged;
  const worktree = judged.worktree.path;
  let temporaryDirectory: string | undefined;
  // The TMPDIR first: the worktree's owner file, removed with the worktree, is what leads a later judge to it.
  const clear = async (): Promise<void> => {
    if (temporaryDirectory !== undefined) await removeCheckTemporaryDirectory(temporaryDirectory);
    await removeMadeWorktree(where.target, judged.worktree);
  };
  let cleared: Promise<void> | undefined;
  try {
    const setup = await judged.sandbox;
    if (setup.kind === 'refused') return setup;
    temporaryDirectory = setup.sandbox.temporaryDirectory;
    // Bound once the worktree is checked out and the authority set read at the base (R13.5); the agents' workspaces hidden.
    const sandbox = await withAgentWorkspacesHidden(
      await withAuthorityReadOnly(setup.sandbox, worktree, suite.authority.paths),
      where.target,
      where.gitDirectory,
    );
    // The worktree as checked out, before any check: what git does not compare is compared with it after each.
    const made = await readWorktreeShape(worktree, judged.worktree.gitDir);
    const ran = await runSuite({
      cwd: worktree,
      commands: suite.suite === 'none' ? [] : suite.suite.commands,
      environment: sandbox.environment.variables,
      attemptTag: sandbox.attemptTag,
      ...(sandbox.established === undefined ? {} : { boundary: sandbox.established }),
      checkDeadlineMs: request.checkDeadlineMs,
      suiteDeadlineMs: request.suiteDeadlineMs,
      targetDirectory: where.targetDirectory,
      outputsDirectory: where.outputsDirectory,
      ...(request.signal === undefined ? {} : { signal: request.signal }),
      ...(request.hooks === undefined ? {} : { hooks: request.hooks }),
      readWorktree: (options) => readWorktreeAfterSuite(judged.worktree, options),
      clearForNextCheck: async (reading) => {
        const tmp = setup.sandbox.temporaryDirectory;
        const [left, emptied] = await Promise.all([
          removeIgnoredPaths(worktree, reading.ignoredPaths ?? []).then(async (left) => [
            ...left,
            ...(await restoreWorktreeShape(worktree, judged.worktree.gitDir, made)),
          ]),
          emptyForNextCheck(setup.sandbox),
        ]);
        return emptied ? left : [...left, `TMPDIR ${tmp}`];
      },
      candidateCommit: judged.candidate.commit,
    });
    const judgement = await decideOverRun(request, where, attempt, { ...judged, ran, sandbox });
    // Never rejects: a worktree left behind is removed by the next judge (leftover-check-worktrees.ts).
    cleared = clear().catch(() => undefined);
    return { ...judgement, cleared };
  } finally {
    if (cleared === undefined) await clear();
  }
}

/** The verdict once the suite ran (R13.4): the worktree read after it, and a receipt when accepted (R13.6). */
async function decideOverRun(
  request: JudgeRequest,
  where: Where,
  attempt: Attempt,
  judged: JudgedBeforeSuite & { ran: SuiteRun; sandbox: CheckSandbox },
): Promise<Judgement> {
  const { candidate, ran, sandbox } = judged;
  // An i/o failure, not a verdict: the home could not hold a check's output, so nothing is appended (decision 0037).
  if (ran.end.kind === 'output-not-kept') {
    return {
      kind: 'failed',
      path: ran.end.path,
      message: `the output of \`${ran.end.command}\` could not be kept (${ran.end.message}); the check was stopped and nothing was judged or appended; free space in the product home and accept again`,
    };
  }
  // The suite read it after its last check when that check passed; else (a check failed, or none ran to its end) it is read now.
  const readBySuite = ran.end.kind === 'passed' || ran.end.kind === 'tree-changed' ? ran.after : undefined;
  const after = readBySuite ?? (await readWorktreeAfterSuite(judged.worktree));
  const afterSuite =
    'failed' in after ? ('not-recorded' as const) : { head: after.head, headMoved: after.head !== candidate.commit, dirtyPaths: after.dirtyPaths };
  const decision = decideAfterSuite({
    end: ran.end,
    checks: ran.checks,
    checksNotRun: ran.checksNotRun,
    touched: judged.touched,
    after: afterSuite === 'not-recorded' ? (after as { failed: string }) : afterSuite,
  });
  const answer = judged.as(decision, {
    ...judged.known,
    checks: ran.checks,
    checksNotRun: ran.checksNotRun,
    afterSuite,
    containment: ran.containment,
    environment: sandbox.environment.record,
    boundary: sandbox.boundary,
  });
  if (decision.verdict !== 'accepted' || answer.kind !== 'judged') return answer;
  const receipt = mintReceipt({
    where,
    intent: attempt.intent,
    outcome: attempt.outcome,
    candidate,
    checks: ran.checks,
    policyDigest: judged.suite.policyDigest,
    statecraftVersion: request.statecraftVersion,
    boundary: sandbox.boundary,
  });
  return { kind: 'judged', judged: { ...answer.judged, receipt } };
}
