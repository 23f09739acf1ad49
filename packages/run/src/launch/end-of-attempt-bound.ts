import type { EndOfAttemptGit } from '../workspace/end-of-attempt-git.js';
import { removeStoppedGitIndexLock } from '../workspace/stopped-git-index-lock.js';

/**
 * A bound on the end of an attempt. Once the adapter's tree is gone statecraft reads the tree the
 * agent left with git — a status, `git add -A` and a commit of a dirty tree (R13.2), the head —
 * and the agent chose that tree: one large sparse file can keep `git add` busy for minutes after
 * the deadline, with the target's lock held and the operator's interrupt unheard. So the end's git
 * gets a bound of its own, scaled to the attempt (its deadline) within [10 s, 60 s], and stops at
 * the operator's interrupt unless that interrupt is what ended the attempt (`cancelled`). What it
 * stops is recorded as not identified, naming why; the outcome the supervisor classified stands
 * (decision 0036).
 */
const END_OF_ATTEMPT_MIN_MS = 10_000;
const END_OF_ATTEMPT_MAX_MS = 60_000;

/** The end's bound for an attempt with this deadline: the deadline itself, within [10 s, 60 s]. */
export function endOfAttemptBoundMs(deadlineMs: number): number {
  return Math.min(Math.max(deadlineMs, END_OF_ATTEMPT_MIN_MS), END_OF_ATTEMPT_MAX_MS);
}

export interface EndOfAttempt {
  /**
   * What the end's git runs under: its signal (the bound counted from this first call: the tree's
   * end, or the supervisor's answer), and what to do after a git it stopped.
   */
  git(): EndOfAttemptGit;
  /**
   * The supervisor's answer, once known. An interrupt that came before it stops the end now unless
   * it ended the attempt (`cancelled`: its head is still read, under the bound alone). With no
   * survivor, a stopped git's index lock is nobody else's, and is removed.
   */
  settle(ended: { outcome: string; survivors: number }): void;
}

/** The end of one attempt, listening for the operator from its preparation on; its bound not started until the end's first git is. */
export function endOfAttempt(boundMs: number, interrupt: AbortSignal | undefined): EndOfAttempt {
  const ending = new AbortController();
  const stop = (why: string): void => {
    if (!ending.signal.aborted) ending.abort(new Error(why));
  };
  const byOperator = 'the operator interrupted the end of the attempt';
  let started = false;
  let settled: { outcome: string; survivors: number } | undefined;
  // Index locks of stopped gits, removed once the answer says no survivor could hold them.
  const stoppedLocks = new Set<string>();
  const removeLocks = async (): Promise<void> => {
    if (settled?.survivors !== 0) return;
    const directories = [...stoppedLocks];
    stoppedLocks.clear();
    await Promise.all(directories.map((directory) => removeStoppedGitIndexLock(directory)));
  };
  interrupt?.addEventListener(
    'abort',
    () => {
      // Before the answer it may be what ends the attempt; settle decides. After it, during the end, it stops the end.
      if (started && settled !== undefined) stop(byOperator);
    },
    { once: true },
  );
  const git: EndOfAttemptGit = {
    signal: ending.signal,
    stopped: (gitDirectory) => {
      stoppedLocks.add(gitDirectory);
      return removeLocks();
    },
  };
  return {
    git() {
      if (!started) {
        started = true;
        const timer = setTimeout(
          () =>
            stop(
              `the end of the attempt took more than ${boundMs / 1000} s (its bound: the attempt's deadline, within ${END_OF_ATTEMPT_MIN_MS / 1000}-${END_OF_ATTEMPT_MAX_MS / 1000} s)`,
            ),
          boundMs,
        );
        // The bound must not keep the process alive once the end is written.
        timer.unref();
      }
      return git;
    },
    settle(ended) {
      settled = ended;
      if (interrupt?.aborted === true && ended.outcome !== 'cancelled') stop(byOperator);
      void removeLocks();
    },
  };
}
