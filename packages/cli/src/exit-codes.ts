/**
 * Exit codes, the same for every verb (R11):
 * 0 did what was asked and found nothing wrong; 1 a finding; 2 refused, nothing done;
 * 3 usage error; 4 failed (an i/o error, naming the path).
 */
export const EXIT = {
  ok: 0,
  finding: 1,
  refused: 2,
  usage: 3,
  failed: 4,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
