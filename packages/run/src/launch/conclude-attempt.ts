import { join } from 'node:path';
import type { attemptArtifactNames } from '@statecraft/records';
import type { AttemptRun } from '../attempt/run-attempt.js';
import type { AppendedRecord, SerialAppender } from '@statecraft/records';
import type { IntentRecord, OutcomeRecord } from '@statecraft/records';
import type { LockHolder } from '@statecraft/records';
import type { RunPlan } from '../plan/plan-run.js';
import type { RunFailure } from '../refusal.js';
import type { OutcomeCandidate } from '@statecraft/records';
import { identifyCandidate, startCandidateReads, type FirstCandidateReads } from '../workspace/identify-candidate.js';
import type { EarlierCandidate } from '../workspace/attempt-start.js';
import { readWorkspaceHead, type PreparedWorkspace, type WorkspaceHeadReading } from '../workspace/prepare-workspace.js';
import { restoreWorkspaceGit, type WorkspaceGitRestoration } from '@statecraft/records';
import { keepArtifact } from '@statecraft/records';
import { failedPath, writingFile } from '@statecraft/records';
import type { Launch } from './launch-attempt.js';
import { releaseOutcomeReserve } from './outcome-reserve.js';
import type { EndOfAttempt } from './end-of-attempt-bound.js';
import { removeAttemptTemporaryDirectory } from './temporary-directory.js';

/**
 * The end of one attempt, once its adapter has been supervised: the result kept beside the chain,
 * the candidate of a completed attempt identified (R13.2), the workspace's head read, and the
 * outcome the supervisor classified (R8.2) appended and fsync'd.
 */
/** Who this attempt is: its run, its number, and the lock it holds the target with. */
export interface AttemptIdentity {
  runId: string;
  number: number;
  reclaimedLock: 'none' | LockHolder | 'unreadable';
}

/** What one attempt has made before its intent: files are named from it, and withdrawn on a failure. */
export interface PreparedAttempt {
  identity: AttemptIdentity;
  /** Where its records go: each linked to the chain's tip, in turn with any other attempt of its run. */
  chain: SerialAppender;
  names: ReturnType<typeof attemptArtifactNames>;
  workspace: PreparedWorkspace;
  temporaryDirectory: string;
  /** The outcome reserve's file (outcome-reserve.ts). */
  reserve: string;
  /** The workspace's git directory as the repository registered it (registered-git-directory.ts). */
  gitDirectory: Promise<string | undefined>;
  /** A candidate's first reads, when they were started as the adapter's tree was gone. */
  firstReads?: Promise<FirstCandidateReads | undefined>;
  /** The bound every git of the attempt's end runs under (end-of-attempt-bound.ts). */
  end: EndOfAttempt;
}

/**
 * The attempt with its first candidate reads, unless the sweep found a process of the attempt
 * still alive: reads started as bwrap ended (superviseAdapter's `onTreeGone`) may then have seen a
 * tree that was still being written. They are let finish (a status may refresh the index, and a
 * second one must not meet its lock) and dropped; the reads start again over the tree as left.
 */
export function readsThatStand(attempt: PreparedAttempt, survivors: number): PreparedAttempt {
  if (survivors === 0 || attempt.firstReads === undefined) return attempt;
  const early = attempt.firstReads;
  const dropped = early.then(async (reads) => {
    if (reads !== undefined) await Promise.all([reads.status, reads.ids]);
    return undefined;
  });
  return { ...attempt, firstReads: dropped };
}

/** The candidate's first reads (identify-candidate.ts), in the workspace through its registered git directory. */
export async function firstCandidateReads(attempt: PreparedAttempt, baseTree: string | undefined): Promise<FirstCandidateReads | undefined> {
  const gitDirectory = await attempt.gitDirectory;
  return gitDirectory === undefined ? undefined : startCandidateReads(attempt.workspace.path, gitDirectory, baseTree, attempt.end.git());
}

/**
 * After the adapter: the result kept, the candidate of a completed attempt identified (R13.2), and
 * the outcome the supervisor classified (R8.2) appended and fsync'd. Evidence that could not be
 * kept is an i/o failure naming it, even when the outcome was recorded.
 */
export async function concludeAttempt(
  plan: RunPlan,
  attempt: PreparedAttempt,
  ran: {
    intent: AppendedRecord & { record: IntentRecord };
    supervised: Extract<AttemptRun, { kind: 'ran' }>;
    streamFile: string;
    stderrFile: string;
    truncatedTail: IntentRecord['truncatedTail'];
  },
): Promise<Launch> {
  const { runId, number } = attempt.identity;
  const { names } = attempt;
  const { intent, supervised, streamFile, stderrFile } = ran;
  // The supervisor classified it (R8.2): a deadline, the operator's interrupt or unkept evidence first.
  const { result, evidence } = supervised;
  const resultFile = join(plan.paths.directory, names.result);
  // What the full home held back for this moment is given back before the result is written.
  await releaseOutcomeReserve(attempt.reserve);
  attempt.end.settle({ outcome: result.outcome, survivors: result.survivors.length });

  try {
    // Independent steps, run together: each fsync and git call is paid on every attempt.
    // A completed attempt's candidate is identified before its outcome is appended (R13.2); the
    // head is read after, so it is the candidate a statecraft commit made.
    const [resultArtifact, temporary, { candidate, head }, workspaceGit] = await Promise.all([
      writingFile(resultFile, () => keepArtifact(plan.paths.directory, names.result, `${JSON.stringify(result, null, 2)}\n`)),
      removeAttemptTemporaryDirectory(attempt.temporaryDirectory),
      candidateThenHead(result.outcome === 'completed', plan.target.commonDirectory, readsThatStand(attempt, result.survivors.length), {
        workspace: attempt.workspace.path,
        baseCommit: plan.baseCommit,
        baseTree: plan.baseTree,
        runId,
        attempt: number,
        start: intent.record.start,
        earlier: plan.retry === 'none' ? [] : plan.retry.candidates,
      }),
      gitAsMade(attempt),
    ]);
    const kept = keptEvidence(names, supervised, streamFile, stderrFile);
    const appended = await writingFile(plan.paths.chain, () =>
      attempt.chain.append(() => ({
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
        artifacts: { stream: kept.stream, stderr: kept.stderr, result: resultArtifact },
        temporaryDirectory: temporary,
        evidence: kept.evidence,
        candidate,
      })),
    );
    if (evidence !== 'kept')
      return evidenceFailure(
        evidence,
        `its outcome is recorded as ${result.outcome}${result.cause === 'none' ? '' : ` (${result.cause})`} at ${plan.paths.chain} line ${appended.record.seq + 1}`,
      );
    return {
      kind: 'concluded',
      intent,
      outcome: appended as AppendedRecord & { record: OutcomeRecord },
      truncatedTail: ran.truncatedTail,
      reclaimedLock: attempt.identity.reclaimedLock,
      workspaceGit,
    };
  } catch (error) {
    const unwritten = `cannot write the outcome (${(error as Error).message}); the attempt ran and its intent stays without an outcome`;
    // The evidence first, if it was what failed first; the path is then the file the outcome could not be written to.
    const path = failedPath(error, plan.paths.chain);
    if (evidence !== 'kept') return { ...evidenceFailure(evidence, unwritten), stage: 'outcome', path, cause: error };
    return { kind: 'failed', stage: 'outcome', path, message: unwritten, spawned: true, cause: error };
  }
}

/**
 * The workspace's git pointer and registration put back as statecraft made them, once nothing of
 * the attempt runs (workspace-git-as-made.ts): the operator's own git, run later in the workspace
 * path `run` prints, then obeys nothing the agent wrote there. Beside the candidate's reads, which
 * never follow the pointer (they name the registered git directory). `not-registered` when no
 * registration names the workspace: nothing says what the pointer should be.
 */
async function gitAsMade(attempt: PreparedAttempt): Promise<WorkspaceGitRestoration | 'not-registered'> {
  const gitDirectory = await attempt.gitDirectory;
  return gitDirectory === undefined ? 'not-registered' : restoreWorkspaceGit(attempt.workspace.path, gitDirectory);
}

/**
 * The stream's and stderr's entries in the outcome record: the digests of the very bytes the
 * supervisor read from the child's pipes, written and fsync'd by its tee (supervise/stream-tee.ts)
 * — not of whatever the files hold by now, so an edit made to them during the attempt is never
 * sealed into the chain. The result's write fsyncs the directory that holds both files.
 * A file that could not be written whole is not vouched for: its digest stays in the result (the
 * bytes read), the file is named under `evidence`, and its artifact is `not-recorded`.
 */
function keptEvidence(
  names: ReturnType<typeof attemptArtifactNames>,
  supervised: Extract<AttemptRun, { kind: 'ran' }>,
  streamFile: string,
  stderrFile: string,
): Pick<OutcomeRecord, 'evidence'> & { stream: OutcomeRecord['artifacts']['stream']; stderr: OutcomeRecord['artifacts']['stderr'] } {
  const { evidence } = supervised;
  const notKept = (file: string) => evidence !== 'kept' && evidence.notKept.some((failure) => failure.path === file);
  const relative = (file: string) => (file === streamFile ? names.stream : file === stderrFile ? names.stderr : file);
  return {
    stream: notKept(streamFile) ? 'not-recorded' : { path: names.stream, ...supervised.attempt.stdout },
    stderr: notKept(stderrFile) ? 'not-recorded' : { path: names.stderr, ...supervised.attempt.stderr },
    evidence: evidence === 'kept' ? 'kept' : { notKept: evidence.notKept.map((failure) => ({ path: relative(failure.path), message: failure.message })) },
  };
}

/**
 * A file of evidence that could not be written is an i/o failure (exit 4) naming it, even when the
 * outcome was recorded: the record says what could not be kept, and the operator has a home to free.
 */
function evidenceFailure(evidence: { notKept: { path: string; message: string }[]; stopped: boolean }, then: string): RunFailure {
  const [first] = evidence.notKept;
  const what = evidence.notKept.map((failure) => failure.message).join('; ');
  const stop = evidence.stopped ? 'the attempt was stopped at once and its process tree killed' : 'the attempt had already ended';
  return { kind: 'failed', stage: 'evidence', path: first?.path ?? 'not-recorded', message: `${what}; ${stop}; ${then}`, spawned: true };
}

/**
 * The candidate of a completed attempt (`not-recorded` for any other), then the workspace head.
 * The head is read once the work tree is settled — after statecraft's commit, if it made one, so
 * it is that commit — beside the candidate's own reads rather than after them. A tree the
 * candidate's status found clean gives its head from that very status: one git process fewer.
 */
async function candidateThenHead(
  completed: boolean,
  commonDirectory: string,
  prepared: Pick<PreparedAttempt, 'gitDirectory' | 'firstReads' | 'end'>,
  input: {
    workspace: string;
    baseCommit: string;
    baseTree: string | undefined;
    runId: string;
    attempt: number;
    start: IntentRecord['start'];
    earlier: readonly EarlierCandidate[];
  },
): Promise<{ candidate: OutcomeCandidate; head: WorkspaceHeadReading }> {
  const end = prepared.end.git();
  const [gitDirectory, firstReads] = await Promise.all([prepared.gitDirectory, prepared.firstReads]);
  const readHead = (): Promise<WorkspaceHeadReading> => readWorkspaceHead(input.workspace, gitDirectory, end);
  if (!completed) return { candidate: 'not-recorded', head: await readHead() };
  if (gitDirectory === undefined) {
    return { candidate: { notIdentified: `no worktree of ${commonDirectory} is registered at ${input.workspace}` }, head: await readHead() };
  }
  // Never so for an intent written now (launch refuses an attempt whose start it cannot read).
  const start = input.start;
  if (start === 'not-recorded')
    return { candidate: { notIdentified: "the intent records no start of the workspace to tell the attempt's work from" }, head: await readHead() };
  const settled: { head?: Promise<WorkspaceHeadReading> } = {};
  const identified = await identifyCandidate(
    { ...input, start, gitDirectory, end },
    (clean) => {
      settled.head = clean === undefined ? readHead() : Promise.resolve(clean);
    },
    firstReads,
  );
  const candidate: OutcomeCandidate = identified.kind === 'identified' ? identified.candidate : { notIdentified: identified.message };
  // Not settled when git failed before the work tree was: read it now, as it was left.
  return { candidate, head: await (settled.head ?? readHead()) };
}
