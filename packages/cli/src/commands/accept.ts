import { acceptAttempt, type AcceptRequest } from '@statecraft/acceptance';
import { viewOfAcceptance, type AcceptanceView } from '@statecraft/records';
import type { Answer } from '../answer.js';
import { EXIT } from '../exit-codes.js';
import { STATECRAFT_VERSION } from '../statecraft-version.js';
import { renderAcceptance } from './accept-render.js';
import { renderAcceptSummary } from './run-summary-render.js';

/** What `accept` is given: the judge's request, less the version the CLI itself supplies. */
export type AcceptOptions = Omit<AcceptRequest, 'statecraftVersion'> & {
  /** `--verbose`: the whole acceptance (candidate, suite, each check, boundary, policy, the failing check's tails); else the summary. */
  verbose?: boolean;
};

/** What `accept --json` prints: the acceptance, with the run and attempt it judged. */
export type AcceptValue =
  | (AcceptanceView & { runId: string; attempt: number; target: string })
  | { refused: { reason: string; message: string } }
  | { failed: { path: string; message: string } };

/**
 * `statecraft accept <target> <run>` (R13): judges the attempt and appends the acceptance record.
 * Exit 0 accepted; 1 failed, no-acceptance, interrupted, authority-change or not-attempted;
 * 2 refused (a live attempt, a broken chain, no such run, a verdict already final); 4 i/o.
 */
export async function accept(options: AcceptOptions): Promise<Answer<AcceptValue>> {
  const judged = await acceptAttempt({
    home: options.home,
    target: options.target,
    runId: options.runId,
    ...(options.attempt === undefined ? {} : { attempt: options.attempt }),
    checkDeadlineMs: options.checkDeadlineMs,
    suiteDeadlineMs: options.suiteDeadlineMs,
    source: options.source,
    ...(options.boundary === undefined ? {} : { boundary: options.boundary }),
    statecraftVersion: STATECRAFT_VERSION,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.hooks === undefined ? {} : { hooks: options.hooks }),
  });
  if (judged.kind === 'refused') {
    const refused = { reason: judged.reason, message: judged.message };
    return { value: { refused }, exitCode: EXIT.refused, human: () => [`refused (${refused.reason}): ${refused.message}`] };
  }
  if (judged.kind === 'failed') {
    const failed = { path: judged.path, message: judged.message };
    return { value: { failed }, exitCode: EXIT.failed, human: () => [`failed: ${failed.path}: ${failed.message}`] };
  }
  const view = viewOfAcceptance(judged.entry, judged.targetDirectory);
  const value = {
    runId: judged.entry.record.runId,
    attempt: judged.entry.record.attempt,
    target: judged.target,
    ...view,
    receiptState: judged.receiptState,
  };
  return {
    value,
    exitCode: value.verdict === 'accepted' ? EXIT.ok : EXIT.finding,
    human: (shown) => ('verdict' in shown ? (options.verbose === true ? renderAcceptance(shown, { tails: true }) : renderAcceptSummary(shown)) : []),
  };
}
