/**
 * The longest delay one Node timer holds (2^31 − 1 ms, about 24.8 days). A longer delay overflows
 * and fires after 1 ms, so a deadline beyond it is served as a chain of timers no longer than this.
 */
export const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * The deadline (R7.2): a timer started at spawn. It is cancelled at a normal end; when it fires,
 * the supervisor stops waiting on anything else. Not unref'd: a supervisor waiting for a deadline
 * must stay alive to enforce it. A deadline longer than one timer can hold is a chain of timers,
 * each taking what remains: a timer only ever fires late, so the chain never ends an attempt early.
 */
export function startDeadline(deadlineMs: number): { expired: Promise<'deadline'>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<'deadline'>((resolve) => {
    const wait = (remainingMs: number): void => {
      const slice = Math.min(remainingMs, LONGEST_TIMER_MS);
      timer = setTimeout(() => (slice === remainingMs ? resolve('deadline') : wait(remainingMs - slice)), slice);
    };
    wait(deadlineMs);
  });
  // Only the pending link needs clearing: the next is scheduled from inside it.
  return { expired, cancel: () => clearTimeout(timer) };
}
