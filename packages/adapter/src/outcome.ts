import * as z from 'zod';

/** The five attempt outcomes (R8.1). Nothing else is an outcome. */
const OUTCOMES = ['completed', 'failed', 'refused', 'interrupted', 'cancelled'] as const;
export const OutcomeSchema = z.enum(OUTCOMES);
export type Outcome = z.infer<typeof OutcomeSchema>;

/** Why an attempt was `interrupted` (or `none`): the supervisor's reading, never the adapter's. */
export const InterruptionCauseSchema = z.enum([
  'none',
  'deadline',
  'stream-malformed',
  'stream-read-failure',
  'stream-no-result',
  'turn-limit',
  'provider-error',
  'adapter-error',
  'unmapped-terminal',
  'operator-cancel',
  /** The supervisor stopped the attempt because a file of its evidence could not be written (R8.4). */
  'evidence-not-kept',
  /**
   * The kept stream or the adapter's stderr reached the keep bound (STATECRAFT_KEEP_BOUND, 1 GiB by
   * default): the supervisor stopped the attempt there, and the file holds exactly what was read.
   */
  'evidence-bound',
  /**
   * The stream ended as `completed`, but a process of the attempt was still running when it ended
   * (left behind, then killed, or alive past the reaping wait): a survivor is never a clean end
   * (R7.3). The survivors are listed in the posture.
   */
  'processes-left',
  /**
   * The supervisor was lost before it concluded the attempt (killed with SIGKILL, the machine went
   * down): `statecraft run reconcile` recorded it afterwards, once the target's lock was free, with
   * whatever evidence the supervisor had kept.
   */
  'supervisor-lost',
]);
export type InterruptionCause = z.infer<typeof InterruptionCauseSchema>;
