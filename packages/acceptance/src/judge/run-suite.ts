import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { makeDirectories, type Containment } from '@statecraft/adapter';
import { superviseCheck, type SupervisedCheck } from '@statecraft/run';
import type { EstablishedBoundary } from '@statecraft/environment';
import type { CheckRun } from '@statecraft/records';
import { planCheckInvocation } from './check-invocation.js';

/** What the live status shows as a check starts and ends. */
export interface SuiteHooks {
  onCheckStart?: (check: { index: number; total: number; command: string }) => void;
  onCheckEnd?: (check: { index: number; total: number; run: CheckRun }) => void;
}

export interface SuiteRequest {
  /** The fresh worktree of the candidate: every check's working directory. */
  cwd: string;
  commands: readonly string[];
  environment: Readonly<Record<string, string>>;
  attemptTag: string;
  /** The evidence boundary every check runs inside (R12, R13.3), probed once for the suite; absent under `--boundary none`. */
  boundary?: EstablishedBoundary;
  checkDeadlineMs: number;
  suiteDeadlineMs: number;
  /** The target's directory in the product home, and where under it this judgement's outputs go. */
  targetDirectory: string;
  outputsDirectory: string;
  signal?: AbortSignal;
  hooks?: SuiteHooks;
  /**
   * Reads the worktree (HEAD and dirty paths, readWorktreeAfterSuite) once a check has ended and
   * its process tree is gone, before the next starts: a check that rewrites the candidate for the
   * checks after it (a later one putting it back) is caught at the check that did it.
   */
  readWorktree: (options: { ignored: boolean }) => Promise<WorktreeReading>;
  /**
   * Between two checks, once the reading after the first holds the candidate: removes what it
   * left that git ignores (`ignoredPaths`) and empties the TMPDIR, so the next sees exactly the
   * candidate (R13.3). Answers what could not be removed, named as dirty.
   */
  clearForNextCheck: (reading: { ignoredPaths?: string[] }) => Promise<string[]>;
  /** The candidate commit: HEAD must still be it after every check. */
  candidateCommit: string;
}

/** The worktree as read after a check: HEAD, the dirty paths (and the ignored ones when asked), or why it could not be read. */
type WorktreeReading = { head: string; dirtyPaths: string[]; ignoredPaths?: string[] } | { failed: string };

/** How the suite ended: `passed` only when every check ran and exited 0. */
export type SuiteEnd =
  | { kind: 'passed' }
  | { kind: 'failed'; command: string; exitCode: number | null }
  | { kind: 'not-started'; command: string; message: string }
  | { kind: 'timed-out'; command: string; by: 'check' | 'suite' }
  | { kind: 'suite-deadline' }
  | { kind: 'cancelled' }
  /** A check's output file could not be written: nothing can be judged on digests of bytes not kept (R8.4). */
  | { kind: 'output-not-kept'; command: string; path: string; message: string }
  /** A check's output reached the keep bound: it was stopped there, as at its deadline (keep-bound.ts). */
  | { kind: 'output-bound'; command: string; path: string; bytes: number }
  /** The worktree read after a check that passed was no longer the candidate (or could not be read): the rest are not run. */
  | { kind: 'tree-changed'; command: string };

export interface SuiteRun {
  end: SuiteEnd;
  checks: CheckRun[];
  /** Not started, stopped at a deadline or by the operator, or never reached (R13.3: counted, never a pass). */
  checksNotRun: number;
  containment: Containment | 'not-recorded';
  /** The worktree as read after the last check that passed; absent when none did (the caller reads it then). */
  after?: WorktreeReading;
}

/**
 * Runs the checks one after another, in order (R13.3), each supervised like an adapter with its
 * own deadline — the smaller of `--check-deadline` and what is left of the suite's. The first
 * check that does not pass ends the suite: the rest are not reached, and are counted. So does a
 * check that passed but left the worktree other than the candidate (read after each check). What
 * a check that passed left that git ignores, and its TMPDIR's content, are removed before the next.
 *
 * Each check is set up only once the one before it has ended and its process tree is gone —
 * never while candidate code runs, which could lay a link into a path its sandbox is assembled
 * from (R12, R13.3) — beside the reading of the worktree after it. Its sandbox waits at the
 * closer's gate (superviseCheck's `gate`) until the reading holds the candidate, and is let go
 * with what is then left of the suite's time; a suite that ends first withdraws it, leaving
 * nothing. A waiting sandbox carries no attempt tag (the closer exports it as the check starts).
 */
export async function runSuite(request: SuiteRequest): Promise<SuiteRun> {
  // Made here, never reused: one already there holds another judgement's files (free-outputs-directory.ts), so EEXIST fails the judgement.
  const outputs = join(request.targetDirectory, request.outputsDirectory);
  makeDirectories(dirname(outputs), 0o700);
  await mkdir(outputs, { mode: 0o700 });
  const checks: CheckRun[] = [];
  let containment: SuiteRun['containment'] = 'not-recorded';
  let after: WorktreeReading | undefined;
  const suiteEnds = performance.now() + request.suiteDeadlineMs;
  const total = request.commands.length;
  // Each check's outputs are fsync'd behind the next check (superviseCheck's `durable`); the suite ends only once
  // all are on disk, and one that could not be made durable ends it as not kept, whatever came after.
  const durable: Promise<{ command: string; notKept: { path: string; message: string }[] }>[] = [];
  const stop = async (end: SuiteEnd, notRun: number): Promise<SuiteRun> => {
    const unkept = (await Promise.all(durable)).find((check) => check.notKept.length > 0);
    const first = unkept?.notKept[0];
    const kept: SuiteEnd =
      end.kind !== 'output-not-kept' && unkept !== undefined && first !== undefined ? { kind: 'output-not-kept', command: unkept.command, ...first } : end;
    // An end not kept appends nothing (decideOverRun): its count of checks not run is never recorded.
    return { end: kept, checks, checksNotRun: notRun, containment, ...(after === undefined ? {} : { after }) };
  };
  // The next check's sandbox, assembled beside the reading after the check before it (below).
  let upcoming: CheckSetUp | undefined;
  for (const [index, command] of request.commands.entries()) {
    const unreached = total - index;
    // Set up only once the check before it has ended and its process tree is gone, so no candidate
    // code runs while this sandbox is assembled (bwrap-boundary.ts binds by descriptor; where each
    // bind lands is still a path, which nothing untrusted may move meanwhile).
    const current = upcoming ?? setUpCheck(request, index);
    if (request.signal?.aborted === true) {
      await current.withdraw();
      return stop({ kind: 'cancelled' }, unreached);
    }
    const left = Math.floor(suiteEnds - performance.now());
    if (left <= 0) {
      await current.withdraw();
      return stop({ kind: 'suite-deadline' }, unreached);
    }
    if (current.kind === 'not-startable') return stop({ kind: 'not-started', command, message: current.message }, unreached);
    request.hooks?.onCheckStart?.({ index, total, command });
    const deadlineMs = Math.min(request.checkDeadlineMs, left);
    current.go(deadlineMs);
    const answer = await current.supervised;
    if ('error' in answer) {
      const error = answer.error as Error;
      const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
      return stop({ kind: 'not-started', command, message: `${error.message}${cause}` }, unreached);
    }
    const supervised = answer.check;
    containment = supervised.containment;
    durable.push(supervised.durable.then((notKept) => ({ command, notKept })));
    const stopped = supervised.timedOut || supervised.cancelled || supervised.bound.length > 0;
    const exitCode = supervised.exit === 'not-observed' || stopped ? null : supervised.exit.code;
    const run: CheckRun = {
      command,
      program: current.invocation.program,
      shell: current.invocation.shell,
      exitCode,
      exit: supervised.exit,
      timedOut: supervised.timedOut,
      durationMs: Math.round(supervised.durationMs),
      stdout: { path: current.names.stdout, ...supervised.stdout },
      stderr: { path: current.names.stderr, ...supervised.stderr },
      survivors: supervised.survivors,
    };
    checks.push(run);
    request.hooks?.onCheckEnd?.({ index, total, run });
    const [unkept] = supervised.notKept;
    if (unkept !== undefined) return stop({ kind: 'output-not-kept', command, path: unkept.path, message: unkept.message }, unreached);
    // A check stopped before its end did not run: it is counted with those never reached.
    const [bound] = supervised.bound;
    if (bound !== undefined) {
      const output = bound === join(request.targetDirectory, run.stdout.path) ? run.stdout : run.stderr;
      return stop({ kind: 'output-bound', command, path: output.path, bytes: output.bytes }, unreached);
    }
    if (supervised.cancelled) return stop({ kind: 'cancelled' }, unreached);
    if (supervised.timedOut) return stop({ kind: 'timed-out', command, by: deadlineMs < request.checkDeadlineMs ? 'suite' : 'check' }, unreached);
    if (exitCode !== 0) return stop({ kind: 'failed', command, exitCode }, unreached - 1);
    // What git ignores is removed before the next check goes (the last check's is left: the
    // worktree is removed whole). The next check's sandbox is assembled meanwhile: this check's
    // tree is gone, so nothing untrusted moves a path it is assembled from; it waits at its gate
    // and goes only once the reading holds the candidate and the leftovers are removed, else it is
    // withdrawn, nothing of it having run (decision 0111).
    const next = index + 1 < total;
    const following = next ? setUpCheck(request, index + 1) : undefined;
    const held = await readAndClear(request, next).catch(async (error: unknown) => {
      await following?.withdraw();
      throw error;
    });
    after = held.after;
    if (!held.holds) {
      await following?.withdraw();
      return stop({ kind: 'tree-changed', command }, unreached - 1);
    }
    upcoming = following;
  }
  return stop({ kind: 'passed' }, 0);
}

/**
 * The worktree read after a check that passed, and, when another check follows, what it left that
 * git ignores and its TMPDIR's content removed: `holds` when it is still exactly the candidate.
 */
async function readAndClear(request: SuiteRequest, next: boolean): Promise<{ after: WorktreeReading; holds: boolean }> {
  const after = await request.readWorktree({ ignored: next });
  if (!holdsCandidate(after, request.candidateCommit)) return { after, holds: false };
  const notRemoved = next && !('failed' in after) ? await request.clearForNextCheck(after) : [];
  if (notRemoved.length > 0 && !('failed' in after)) return { after: { head: after.head, dirtyPaths: notRemoved }, holds: false };
  return { after, holds: true };
}

type Invocation = Extract<ReturnType<typeof planCheckInvocation>, { kind: 'startable' }>;

/** One check, set up to go: its sandbox waiting at the gate, or why it cannot be started. */
type CheckSetUp =
  | { kind: 'not-startable'; message: string; withdraw: () => Promise<void> }
  | {
      kind: 'set-up';
      invocation: Invocation;
      names: { stdout: string; stderr: string };
      /** Lets the check start, with its deadline. */
      go: (deadlineMs: number) => void;
      /** Takes the check back before it started (the suite ended first); settles once nothing is left of it. */
      withdraw: () => Promise<void>;
      /** How it ran; a check that could not be started at all is the error its supervision threw. */
      supervised: Promise<{ check: SupervisedCheck } | { error: unknown }>;
    };

function setUpCheck(request: SuiteRequest, index: number): CheckSetUp {
  const command = request.commands[index] ?? '';
  const invocation = planCheckInvocation(command, request.environment.PATH);
  if (invocation.kind === 'not-startable') return { kind: 'not-startable', message: invocation.message, withdraw: () => Promise.resolve() };
  const names = { stdout: `${request.outputsDirectory}/check-${index + 1}.stdout`, stderr: `${request.outputsDirectory}/check-${index + 1}.stderr` };
  let settle: (go: { deadlineMs: number } | 'withdrawn') => void = () => undefined;
  const gate = new Promise<{ deadlineMs: number } | 'withdrawn'>((resolve) => {
    settle = resolve;
  });
  const supervising = superviseCheck({
    file: invocation.file,
    args: invocation.args,
    cwd: request.cwd,
    environment: request.environment,
    deadlineMs: request.checkDeadlineMs,
    attemptTag: request.attemptTag,
    ...(request.boundary === undefined ? {} : { boundary: request.boundary }),
    stdoutFile: join(request.targetDirectory, names.stdout),
    stderrFile: join(request.targetDirectory, names.stderr),
    ...(request.signal === undefined ? {} : { signal: request.signal }),
    gate,
  });
  // Handled from the start: a check may fail before anyone awaits it.
  const supervised = supervising.then(
    (check) => (check === 'withdrawn' ? { error: new Error('the check was withdrawn before it started') } : { check }),
    (error: unknown) => ({ error }),
  );
  return {
    kind: 'set-up',
    invocation,
    names,
    go: (deadlineMs) => settle({ deadlineMs }),
    withdraw: async () => {
      settle('withdrawn');
      await supervised;
    },
    supervised,
  };
}

/** Whether the worktree read after a check is still exactly the candidate: HEAD unmoved, nothing dirty. */
function holdsCandidate(reading: WorktreeReading, commit: string): boolean {
  return !('failed' in reading) && reading.head === commit && reading.dirtyPaths.length === 0;
}
