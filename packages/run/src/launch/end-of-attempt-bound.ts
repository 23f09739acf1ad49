/**
 * A bound on the end of an attempt. Once the adapter's tree is gone statecraft reads the tree the
 * agent left with git — a status, `git add -A` and a commit of a dirty tree (R13.2), the head —
 * and the agent chose that tree: a sparse 4 GiB file took `git add` two minutes here, after a 5 s
 * deadline, with the target's lock held and the operator's interrupt unheard. So the end's git
 * gets a bound of its own, scaled to the attempt (its deadline) within [10 s, 60 s], and stops at
 * the operator's interrupt, when that comes during the end. What it stops is recorded as not identified, naming why; the
 * outcome the supervisor classified stands (docs/decisions.md, 2026-12-01).
 */
export const END_OF_ATTEMPT_MIN_MS = 10_000;
export const END_OF_ATTEMPT_MAX_MS = 60_000;

/** The end's bound for an attempt with this deadline: the deadline itself, within [10 s, 60 s]. */
export function endOfAttemptBoundMs(deadlineMs: number): number {
  return Math.min(Math.max(deadlineMs, END_OF_ATTEMPT_MIN_MS), END_OF_ATTEMPT_MAX_MS);
}

export interface EndOfAttempt {
  /**
   * The signal the end's git runs under: started at the first call (the tree's end, or the
   * supervisor's answer), aborted when the bound passes or the operator interrupts, its reason
   * saying which in words.
   */
  signal(): AbortSignal;
}

/** The end of one attempt, its bound not started until the end's first git is. */
export function endOfAttempt(boundMs: number, interrupt: AbortSignal | undefined): EndOfAttempt {
  let started: AbortSignal | undefined;
  return {
    signal() {
      if (started !== undefined) return started;
      const ending = new AbortController();
      const seconds = boundMs / 1000;
      const timer = setTimeout(
        () => ending.abort(new Error(`the end of the attempt took more than ${seconds} s (its bound: the attempt's deadline, within 10-60 s)`)),
        boundMs,
      );
      // The bound must not keep the process alive once the end is written.
      timer.unref();
      const onInterrupt = (): void => ending.abort(new Error('the operator interrupted the end of the attempt'));
      // An interrupt that came before the end is what ended the attempt (`cancelled`): its end is
      // still read, under the bound alone. One that comes during the end stops it.
      if (interrupt?.aborted === false) interrupt.addEventListener('abort', onInterrupt, { once: true });
      started = ending.signal;
      return started;
    },
  };
}
