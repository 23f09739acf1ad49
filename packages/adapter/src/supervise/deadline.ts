/**
 * The deadline (R7.2): a timer started at spawn. It is cancelled at a normal end; when it fires,
 * the supervisor stops waiting on anything else. Not unref'd: a supervisor waiting for a deadline
 * must stay alive to enforce it.
 */
export function startDeadline(deadlineMs: number): { expired: Promise<'deadline'>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(() => resolve('deadline'), deadlineMs);
  });
  return { expired, cancel: () => clearTimeout(timer) };
}
