import * as z from 'zod';
import { CountSchema } from '@statecraft/adapter';
import { IntentRecordSchema } from '@statecraft/records';

/** One dangling intent `run reconcile` closed: the outcome it appended, and what evidence it found kept. */
export const ReconciledAttemptSchema = z.strictObject({
  ...IntentRecordSchema.pick({ runId: true, attempt: true }).shape,
  /** 1-based lines of the chain: the intent, and the outcome appended for it. */
  intentLine: z.int().positive(),
  outcomeLine: z.int().positive(),
  outcome: z.literal('interrupted'),
  cause: z.literal('supervisor-lost'),
  /** Whether the stream and stderr the supervisor wrote were found: their digests are sealed by the outcome. */
  stream: z.enum(['kept', 'not-found']),
  stderr: z.enum(['kept', 'not-found']),
  /** Processes of the attempt still running, found by its attempt tag: recorded as survivors, not killed. */
  survivors: z.array(CountSchema),
  /**
   * The attempt's workspace (derived from its run id) and its git pointer and registration: gone
   * (`no-workspace`), named by no registration (`not-registered`: do not run git there), under a
   * state directory that holds a link (`not-own`: nothing is done through it), or put
   * back as statecraft made them, each change `restored` named (none when it was as made), and
   * `failed` saying what could not be.
   */
  workspaceGit: z.discriminatedUnion('state', [
    z.strictObject({ workspace: z.string(), state: z.literal('no-workspace') }),
    z.strictObject({ workspace: z.string(), state: z.literal('not-registered') }),
    /** The state directory holds a link (decision 0420): nothing was put back, `why` says where. */
    z.strictObject({ workspace: z.string(), state: z.literal('not-own'), why: z.string() }),
    z.strictObject({
      workspace: z.string(),
      state: z.literal('restored'),
      restored: z.array(z.strictObject({ path: z.string(), what: z.string() })),
      failed: z.string().optional(),
    }),
  ]),
});

/** `statecraft run reconcile --json`: the target, its chain, and every attempt closed (none when nothing dangled). */
export const RunReconcileAnswerSchema = z.strictObject({
  target: z.string(),
  chain: z.string(),
  reconciled: z.array(ReconciledAttemptSchema),
});
