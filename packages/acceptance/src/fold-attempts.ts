import { join } from 'node:path';
import { concludedPosture, type Artifact, type ChainEntry, type IntentRecord, type LockHolder, type OutcomeRecord } from '@statecraft/run';
import type { AttemptAccount, AttemptState } from './attempt-account.js';

/** A live lock's holder, if any: an intent it names is `running`, not `dangling`. */
export type LiveHolder = Pick<LockHolder, 'runId' | 'attempt'> | 'none';

/**
 * Folds a verified chain into one account per attempt, read-only (R8.4). An intent is paired
 * with the outcome that names its digest; an intent with none is `dangling` (or `running` while
 * its supervisor holds the lock), and every outcome field then reads `not-recorded` (R8.3).
 */
export function foldAttempts(chainFile: string, targetDirectory: string, entries: readonly ChainEntry[], live: LiveHolder): AttemptAccount[] {
  const outcomes = new Map<string, ChainEntry & { record: OutcomeRecord }>();
  for (const entry of entries) {
    if (entry.record.kind === 'outcome') outcomes.set(entry.record.intent, entry as ChainEntry & { record: OutcomeRecord });
  }
  const accounts: AttemptAccount[] = [];
  for (const entry of entries) {
    if (entry.record.kind !== 'intent') continue;
    const intent = entry as ChainEntry & { record: IntentRecord };
    accounts.push(accountOf(chainFile, targetDirectory, intent, outcomes.get(intent.digest), live));
  }
  return accounts;
}

function accountOf(
  chainFile: string,
  targetDirectory: string,
  intent: ChainEntry & { record: IntentRecord },
  outcome: (ChainEntry & { record: OutcomeRecord }) | undefined,
  live: LiveHolder,
): AttemptAccount {
  const i = intent.record;
  const o = outcome?.record;
  const r = o?.result;
  const isLive = live !== 'none' && live.runId === i.runId && live.attempt === i.attempt;
  const state: AttemptState = o !== undefined ? 'concluded' : isLive ? 'running' : 'dangling';
  const posture = r === undefined ? i.posture : concludedPosture(i.posture, r);
  const absolute = (artifact: Artifact): Artifact => ({ ...artifact, path: join(targetDirectory, artifact.path) });
  const maybe = (artifact: Artifact | 'not-recorded' | undefined): Artifact | 'not-recorded' =>
    artifact === undefined || artifact === 'not-recorded' ? 'not-recorded' : absolute(artifact);
  return {
    runId: i.runId,
    attempt: i.attempt,
    state,
    outcome: o?.outcome ?? 'not-recorded',
    cause: o?.cause ?? 'not-recorded',
    refusalCount: r?.refusalCount ?? 'not-recorded',
    refusals: r?.refusals ?? 'not-recorded',
    providerClaim: r?.providerClaim ?? 'not-recorded',
    cost: r?.cost ?? 'not-recorded',
    timedOut: r?.timedOut ?? 'not-recorded',
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
    startedAt: i.at,
    endedAt: r?.endedAt ?? 'not-recorded',
    durationMs: r?.durationMs ?? 'not-recorded',
    deadline: i.deadline,
    exit: r?.exit ?? 'not-recorded',
    provider: r?.provider ?? 'not-recorded',
    posture: {
      adapter: posture.adapter,
      qualification: posture.qualification,
      capabilities: posture.capabilities,
      environment: posture.environment,
      containment: posture.containment,
      boundary: posture.boundary,
      survivors: posture.survivors,
      coverage: posture.coverage,
    },
    records: {
      chain: chainFile,
      intent: { line: intent.lineNumber, sha256: intent.digest },
      outcome: outcome === undefined ? 'not-recorded' : { line: outcome.lineNumber, sha256: outcome.digest },
    },
    artifacts: {
      request: absolute(i.artifacts.request),
      prompt: absolute(i.artifacts.prompt),
      stream: maybe(o?.artifacts.stream),
      stderr: maybe(o?.artifacts.stderr),
      result: maybe(o?.artifacts.result),
    },
  };
}
