import { join } from 'node:path';
import { readLandedIsReachable, type Landing } from './landed-receipt-state.js';
import type { BoundaryRecord } from '@statecraft/adapter';
import type { Receipt } from '../receipt.js';
import type { AcceptanceReason, AcceptanceRecord, AcceptanceVerdict, CheckOutput } from '../chain/acceptance-record.js';
import type { Candidate } from '../candidate.js';
import type { ChainEntry } from '../chain/open-chain.js';
import type { OutcomeRecord } from '../chain/record-schemas.js';
import { runGit } from '../git/git.js';

/** A check's output as shown: the absolute path beside the chain, and the digest the chain holds. */
type ShownOutput = CheckOutput;

/**
 * The acceptance of one attempt as an operator reads it: the JSON contract of `accept --json`, and
 * `acceptance` in `run --accept --json` and `run show --json`. Fields are only
 * ever added, never renamed.
 */
export interface AcceptanceView {
  verdict: AcceptanceVerdict;
  reason: AcceptanceReason;
  explanation: string;
  /** The acceptance record's line and digest; `derived` for an attempt not completed and never judged (R13.1). */
  record: { line: number; sha256: string; at: string } | 'derived';
  candidate: Candidate | 'not-recorded';
  suite: AcceptanceRecord['suite'];
  checks: {
    command: string;
    program: string;
    shell: boolean;
    exitCode: number | null;
    timedOut: boolean;
    durationMs: number;
    stdout: ShownOutput;
    stderr: ShownOutput;
    survivors: AcceptanceRecord['checks'][number]['survivors'];
  }[];
  checksNotRun: number;
  authority: { paths: string[] | 'not-recorded'; touched: string[] };
  afterSuite: AcceptanceRecord['afterSuite'];
  attemptRefusalCount: number | 'not-recorded';
  policyDigest: string;
  deadlines: AcceptanceRecord['deadlines'] | 'not-recorded';
  /** The evidence boundary the checks ran under (R12, R13.3); `not-recorded` when no check was started or the record predates it. */
  boundary: BoundaryRecord | 'not-recorded';
  receipt: Receipt | null;
  receiptFile: ShownOutput | 'none';
  /** The receipt's signature kept beside it (a Sigstore bundle), when a signing key signed it. */
  receiptSignature?: ShownOutput | undefined;
  /** `current` while the receipt's candidate is its run branch's tip; `stale` once it is not (R13.6); `none` without a receipt. */
  receiptState: 'current' | 'stale' | 'none';
}

/** The view of an acceptance record; `receiptState` is read from git separately (`readReceiptState`). */
export function viewOfAcceptance(entry: ChainEntry & { record: AcceptanceRecord }, targetDirectory: string): AcceptanceView {
  const r = entry.record;
  const absolute = (output: CheckOutput): ShownOutput => ({ ...output, path: join(targetDirectory, output.path) });
  return {
    verdict: r.verdict,
    reason: r.reason,
    explanation: r.explanation,
    record: { line: entry.lineNumber, sha256: entry.digest, at: r.at },
    candidate: r.candidate,
    suite: r.suite,
    checks: r.checks.map((check) => ({
      command: check.command,
      program: check.program,
      shell: check.shell,
      exitCode: check.exitCode,
      timedOut: check.timedOut,
      durationMs: check.durationMs,
      stdout: absolute(check.stdout),
      stderr: absolute(check.stderr),
      survivors: check.survivors,
    })),
    checksNotRun: r.checksNotRun,
    authority: r.authority === 'not-recorded' ? { paths: 'not-recorded', touched: [] } : r.authority,
    afterSuite: r.afterSuite,
    attemptRefusalCount: r.attemptRefusalCount,
    policyDigest: r.policyDigest,
    deadlines: r.deadlines,
    boundary: r.boundary ?? 'not-recorded',
    receipt: r.receipt === 'none' ? null : r.receipt,
    receiptFile: r.receiptFile === 'none' ? 'none' : absolute(r.receiptFile),
    ...(r.receiptSignature === undefined ? {} : { receiptSignature: absolute(r.receiptSignature) }),
    receiptState: 'none',
  };
}

/**
 * R13.1: an attempt that did not complete reads `not-attempted` with its reason even before anyone
 * ran `accept` — never a blank a reader must interpret. `undefined` for a completed attempt.
 */
export function derivedAcceptance(outcome: OutcomeRecord): AcceptanceView | undefined {
  if (outcome.outcome === 'completed') return undefined;
  const refused = outcome.outcome === 'refused';
  return {
    verdict: 'not-attempted',
    reason: `attempt-${outcome.outcome}`,
    explanation: refused
      ? `the attempt was refused (${outcome.refusalCount} refusal${outcome.refusalCount === 1 ? '' : 's'}); only a completed attempt is judged`
      : `the attempt ended ${outcome.outcome}; only a completed attempt is judged`,
    record: 'derived',
    candidate: 'not-recorded',
    suite: 'not-recorded',
    checks: [],
    checksNotRun: 0,
    authority: { paths: 'not-recorded', touched: [] },
    afterSuite: 'not-recorded',
    attemptRefusalCount: refused ? outcome.refusalCount : 'not-recorded',
    policyDigest: 'not-recorded',
    deadlines: 'not-recorded',
    boundary: 'not-recorded',
    receipt: null,
    receiptFile: 'none',
    receiptState: 'none',
  };
}

/**
 * Whether a receipt's candidate is still the tip of its run's branch (R13.6), or, once landed, still
 * in the branch it landed on (landed-receipt-state.ts): read-only git calls.
 */
export async function readReceiptState(
  view: AcceptanceView,
  target: string,
  branch: string,
  landings: readonly Landing[] = [],
): Promise<AcceptanceView['receiptState']> {
  if (view.receipt === null) return 'none';
  const { runId, attempt } = view.receipt.attempt;
  if (await readLandedIsReachable(target, landings, runId, attempt, view.receipt.candidate.commit)) return 'current';
  return readCandidateIsTip(target, branch, view.receipt.candidate.commit);
}

/** Whether `commit` is the tip of the run's branch: `stale` once anything moved it, or it cannot be read. */
export async function readCandidateIsTip(target: string, branch: string, commit: string): Promise<'current' | 'stale'> {
  const tip = await runGit(target, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]).catch(() => undefined);
  return tip !== undefined && tip.ok && tip.stdout === commit ? 'current' : 'stale';
}
