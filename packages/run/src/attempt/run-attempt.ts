import { classifyAttempt } from '@statecraft/adapter';
import type { Negotiation } from '@statecraft/adapter';
import type { Manifest } from '@statecraft/adapter';
import type { AdapterIdentity, AttemptResult } from '@statecraft/adapter';
import type { SupervisedAttempt } from '@statecraft/adapter';
import type { SuperviseAnswer, SuperviseOptions } from '../supervise/options.js';
import { superviseAdapter } from '../supervise/supervise-adapter.js';

/** One attempt to supervise and classify: the request is already written to `requestFile`. */
export interface RunAttemptOptions extends Omit<SuperviseOptions, 'args'> {
  requestFile: string;
  manifest: Manifest;
  negotiation: Extract<Negotiation, { kind: 'negotiated' }>;
  adapter: AdapterIdentity;
}

export type AttemptRun =
  | Extract<SuperviseAnswer, { kind: 'refused' | 'withdrawn' }>
  | {
      kind: 'ran';
      attempt: SupervisedAttempt;
      /** The supervisor's classification (R8.2): the outcome, never the adapter's word. */
      result: AttemptResult;
      /** Whether the stream and stderr were kept whole; each file that was not, and why. */
      evidence: 'kept' | { notKept: { path: string; message: string }[]; stopped: boolean };
    };

/**
 * The attempt core both `run` and `qualify` go through: supervise the adapter
 * (`run --request <file>`, the prompt on stdin, the deadline and the operator's interrupt raced,
 * the tree killed and survivors probed) and classify what was observed. A failure to start the
 * adapter is thrown, as the supervisor throws it.
 */
export async function runAttempt(options: RunAttemptOptions): Promise<AttemptRun> {
  const { requestFile, manifest, negotiation, adapter, ...supervise } = options;
  const answer = await superviseAdapter({ ...supervise, args: ['run', '--request', requestFile] });
  if (answer.kind === 'refused' || answer.kind === 'withdrawn') return answer;
  const result = classifyAttempt(answer.attempt, { manifest, negotiation, adapter });
  const evidence = answer.kind === 'evidence-not-kept' ? { notKept: answer.notKept, stopped: answer.stopped } : ('kept' as const);
  return { kind: 'ran', attempt: answer.attempt, result, evidence };
}
