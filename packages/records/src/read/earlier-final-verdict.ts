import type { AcceptanceVerdict } from '../chain/acceptance-record.js';
import type { ChainEntry } from '../chain/open-chain.js';
import type { RunChainRecord } from '../chain/open-chain-for-run.js';

/**
 * The verdicts that judged the candidate (R13.4): once one is recorded it is the attempt's
 * acceptance. `no-acceptance` and `interrupted` judged nothing (a check that did not run, a
 * worktree the suite left other than the candidate), so judging again replaces no verdict.
 */
const FINAL_VERDICTS: ReadonlySet<AcceptanceVerdict> = new Set(['accepted', 'failed', 'authority-change']);

/**
 * Whether a verdict judged the candidate, and so is the attempt's for good: accept refuses to judge
 * it again, run show and run list read it whatever follows, and doctor reports a verdict after it.
 */
export function isFinalVerdict(verdict: AcceptanceVerdict | undefined): boolean {
  return verdict !== undefined && FINAL_VERDICTS.has(verdict);
}

/** The earlier acceptance of this outcome whose verdict is final, as the chain holds it. */
export interface EarlierFinalVerdict {
  verdict: AcceptanceVerdict;
  reason: string;
  at: string;
  line: number;
}

/**
 * The first final verdict recorded for the outcome being judged, if any: the one `run show` and
 * `run list` read. A second judgement would otherwise be a flaky check judged until it passes, the
 * candidate's failure kept only as an earlier line (R8.5: nothing earlier is edited, and a later
 * record that supersedes it is an edit by another name).
 */
export function findEarlierFinalVerdict(entries: readonly ChainEntry<RunChainRecord>[], outcomeDigest: string): EarlierFinalVerdict | undefined {
  const earlier = entries.find((entry) => entry.record.kind === 'acceptance' && entry.record.outcome === outcomeDigest && isFinalVerdict(entry.record.verdict));
  if (earlier === undefined || earlier.record.kind !== 'acceptance') return undefined;
  return { verdict: earlier.record.verdict, reason: earlier.record.reason, at: earlier.record.at, line: earlier.lineNumber };
}

/** The refusal's sentence: the earlier verdict and its time, and the way on (a new attempt, judged on its own). */
export function describeEarlierFinalVerdict(earlier: EarlierFinalVerdict, attempt: { target: string; runId: string; attempt: number }): string {
  return (
    `run ${attempt.runId} attempt ${attempt.attempt} was already judged ${earlier.verdict} (${earlier.reason}) at ${earlier.at} (chain line ${earlier.line}); ` +
    'a recorded verdict is final and the same attempt is not judged again; nothing judged, nothing appended. ' +
    `For a new judgement make a new attempt: statecraft run ${attempt.target} --retry ${attempt.runId}`
  );
}
