import { join } from 'node:path';
import { attemptArtifactNames } from '../chain/chain-paths.js';
import { concludedPosture } from '../concluded-posture.js';
import { isRunId } from '../run-id.js';
import type { AcceptanceRecord } from '../chain/acceptance-record.js';
import type { Artifact, IntentRecord, OutcomeRecord } from '../chain/record-schemas.js';
import type { ChainEntry } from '../chain/open-chain.js';
import type { LockHolder } from '../lock/lock-holder.js';
import { derivedAcceptance, viewOfAcceptance } from './acceptance-view.js';
import type { AttemptAccount, AttemptState } from './attempt-account.js';
import { isFinalVerdict } from './earlier-final-verdict.js';

/** A live lock's holder, if any: an intent it names is `running`, not `dangling`. */
export type LiveHolder = (Pick<LockHolder, 'runId' | 'attempt'> & { attempts?: number }) | 'none';

/** Who a live lock holds: its run's attempt, or, for a run that started several together (`attempts`), each of them. */
export function liveHolderOf(holder: LockHolder): Exclude<LiveHolder, 'none'> {
  return holder.holding === 'run'
    ? { runId: holder.runId, attempt: holder.attempt, attempts: holder.attempts ?? 1 }
    : { runId: holder.runId, attempt: holder.attempt };
}

/** Whether the live holder supervises this attempt. */
export function holdsAttempt(live: LiveHolder, runId: string, attempt: number): boolean {
  if (live === 'none' || live.runId !== runId) return false;
  return live.attempts === undefined ? live.attempt === attempt : attempt <= live.attempts;
}

/**
 * Folds a verified chain into one account per attempt, read-only (R8.4). An intent is paired
 * with the first outcome that names its digest, as `accept` judges it: `run` writes one per intent,
 * and a later one is a finding (check-outcome-records.ts), never the attempt's. An intent with none
 * is `dangling` (or `running` while its supervisor holds the lock), and every outcome field then
 * reads `not-recorded` (R8.3). An intent whose run id is not one `run` makes is not folded: its
 * files are derived from its run id, which would then name a path `run` never made (a `..` in it
 * named another attempt's directory); doctor reports it (check-run-ids.ts).
 */
export function foldAttempts(chainFile: string, targetDirectory: string, entries: readonly ChainEntry[], live: LiveHolder): AttemptAccount[] {
  const outcomes = new Map<string, ChainEntry & { record: OutcomeRecord }>();
  // The latest acceptance of each outcome: a later `accept` of the same attempt supersedes, nothing is edited;
  // but not a final verdict, which `accept` never judges again (R13.4): one after it is a finding, not the attempt's.
  const acceptances = new Map<string, ChainEntry & { record: AcceptanceRecord }>();
  for (const entry of entries) {
    if (entry.record.kind === 'outcome' && !outcomes.has(entry.record.intent))
      outcomes.set(entry.record.intent, entry as ChainEntry & { record: OutcomeRecord });
    if (entry.record.kind === 'acceptance' && !isFinalVerdict(acceptances.get(entry.record.outcome)?.record.verdict))
      acceptances.set(entry.record.outcome, entry as ChainEntry & { record: AcceptanceRecord });
  }
  const accounts: AttemptAccount[] = [];
  for (const entry of entries) {
    if (entry.record.kind !== 'intent' || !isRunId(entry.record.runId)) continue;
    const intent = entry as ChainEntry & { record: IntentRecord };
    const outcome = outcomes.get(intent.digest);
    accounts.push(accountOf(chainFile, targetDirectory, intent, outcome, outcome === undefined ? undefined : acceptances.get(outcome.digest), live));
  }
  return accounts;
}

type IntentEntry = ChainEntry & { record: IntentRecord };
type OutcomeEntry = ChainEntry & { record: OutcomeRecord };
type AcceptanceEntry = ChainEntry & { record: AcceptanceRecord };

function accountOf(
  chainFile: string,
  targetDirectory: string,
  intent: IntentEntry,
  outcome: OutcomeEntry | undefined,
  acceptance: AcceptanceEntry | undefined,
  live: LiveHolder,
): AttemptAccount {
  const i = intent.record;
  const o = outcome?.record;
  const r = o?.result;
  const posture = r === undefined ? i.posture : concludedPosture(i.posture, r);
  return {
    runId: i.runId,
    attempt: i.attempt,
    state: stateOf(i, o, live),
    ...verdictOf(targetDirectory, outcome, acceptance),
    cause: o?.cause ?? 'not-recorded',
    refusalCount: r?.refusalCount ?? 'not-recorded',
    refusals: r?.refusals ?? 'not-recorded',
    refusalDigest: r?.refusalDigest ?? 'not-recorded',
    providerClaim: r?.providerClaim ?? 'not-recorded',
    cost: r?.cost ?? 'not-recorded',
    timedOut: r?.timedOut ?? 'not-recorded',
    streamDiagnostic: r?.streamDiagnostic ?? 'not-recorded',
    streamError: r?.streamDiagnostic ?? 'not-recorded',
    adapterError: r?.adapterError ?? 'not-recorded',
    unverifiableRefusalAccount: posture.capabilities.unverifiableRefusalAccount,
    turns: r?.turns ?? 'not-recorded',
    target: i.target.path,
    workspace: i.workspace,
    branch: i.branch,
    baseCommit: i.baseCommit,
    headCommit: o?.headCommit ?? 'not-recorded',
    workspaceDirty: o?.workspaceDirty ?? 'not-recorded',
    candidate: o?.candidate ?? 'not-recorded',
    startedAt: i.at,
    endedAt: r?.endedAt ?? 'not-recorded',
    durationMs: r?.durationMs ?? 'not-recorded',
    deadline: i.deadline,
    exit: r?.exit ?? 'not-recorded',
    provider: r?.provider ?? 'not-recorded',
    posture: postureShown(posture),
    records: {
      chain: chainFile,
      intent: { line: intent.lineNumber, sha256: intent.digest },
      outcome: outcome === undefined ? 'not-recorded' : { line: outcome.lineNumber, sha256: outcome.digest },
    },
    artifacts: artifactsOf(targetDirectory, i, o),
    evidence: evidenceOf(targetDirectory, o),
  };
}

/** Concluded once an outcome names the intent; before that, running while its supervisor holds the lock, else dangling (R8.3). */
function stateOf(intent: IntentRecord, outcome: OutcomeRecord | undefined, live: LiveHolder): AttemptState {
  if (outcome !== undefined) return 'concluded';
  const isLive = holdsAttempt(live, intent.runId, intent.attempt);
  return isLive ? 'running' : 'dangling';
}

/** The outcome an operator reads, the record it comes from, the supervisor's own outcome and the acceptance. */
function verdictOf(
  targetDirectory: string,
  outcome: OutcomeEntry | undefined,
  acceptance: AcceptanceEntry | undefined,
): Pick<AttemptAccount, 'outcome' | 'outcomeFrom' | 'attemptOutcome' | 'acceptance'> {
  const o = outcome?.record;
  return {
    // A failed acceptance makes the attempt's account read `failed`, the supervisor's `completed` kept beside it (R13.4).
    outcome: acceptance?.record.verdict === 'failed' ? 'failed' : (o?.outcome ?? 'not-recorded'),
    outcomeFrom:
      acceptance?.record.verdict === 'failed'
        ? { record: 'acceptance', line: acceptance.lineNumber, sha256: acceptance.digest }
        : outcome === undefined
          ? 'not-recorded'
          : { record: 'outcome', line: outcome.lineNumber, sha256: outcome.digest },
    attemptOutcome: o?.outcome ?? 'not-recorded',
    acceptance:
      acceptance !== undefined ? viewOfAcceptance(acceptance, targetDirectory) : ((o === undefined ? undefined : derivedAcceptance(o)) ?? 'not-recorded'),
  };
}

/** The posture as the account shows it: the named parts, in this order, and nothing else the record may carry. */
function postureShown(posture: ReturnType<typeof concludedPosture>): AttemptAccount['posture'] {
  return {
    adapter: posture.adapter,
    qualification: posture.qualification,
    capabilities: posture.capabilities,
    environment: posture.environment,
    containment: posture.containment,
    boundary: posture.boundary,
    permissions: posture.permissions,
    survivors: posture.survivors,
    coverage: posture.coverage,
  };
}

/**
 * The files kept beside the chain, as absolute paths, each with the digest its record holds; those
 * only an outcome records read `not-recorded` without one. The path is where this attempt keeps the
 * file (derived from its run and number, as `run` names it), never the path the record holds: a
 * record naming another attempt's files would otherwise have them read, digested and classified
 * as this attempt's. A recorded path that is not that is a finding (own-evidence-paths.ts).
 */
function artifactsOf(targetDirectory: string, intent: IntentRecord, outcome: OutcomeRecord | undefined): AttemptAccount['artifacts'] {
  const own = attemptArtifactNames(intent.runId, intent.attempt);
  const kept = (artifact: Artifact, name: keyof typeof own): Artifact => ({ ...artifact, path: join(targetDirectory, own[name]) });
  const maybe = (artifact: Artifact | 'not-recorded' | undefined, name: keyof typeof own): Artifact | 'not-recorded' =>
    artifact === undefined || artifact === 'not-recorded' ? 'not-recorded' : kept(artifact, name);
  return {
    request: kept(intent.artifacts.request, 'request'),
    prompt: kept(intent.artifacts.prompt, 'prompt'),
    stream: maybe(outcome?.artifacts.stream, 'stream'),
    stderr: maybe(outcome?.artifacts.stderr, 'stderr'),
    result: maybe(outcome?.artifacts.result, 'result'),
  };
}

/** Whether the supervisor kept its evidence, and if not which files it could not keep (absolute paths). */
function evidenceOf(targetDirectory: string, outcome: OutcomeRecord | undefined): AttemptAccount['evidence'] {
  if (outcome === undefined) return 'not-recorded';
  if (outcome.evidence === 'kept') return 'kept';
  return { notKept: outcome.evidence.notKept.map((failure) => ({ ...failure, path: join(targetDirectory, failure.path) })) };
}
