import type { BoundaryRecord } from '@statecraft/adapter';
import type { Receipt } from '@statecraft/records';
import type { Candidate, ChainEntry, CheckRun, IntentRecord, OutcomeRecord } from '@statecraft/records';

/**
 * The receipt (R13.6): repository, base, candidate commit and tree, every check with its command,
 * exit code, duration and output digests, the policy digest, statecraft's, the adapter's and the
 * provider's identities, the qualification verdict, the boundary the checks ran under and the attempt. It is
 * minted `signature: "unsigned"`; accept marks it `sigstore-bundle` when it signs it. It is
 * evidence, not a permission.
 */
export function mintReceipt(input: {
  where: { target: string; key: string };
  intent: ChainEntry & { record: IntentRecord };
  outcome: ChainEntry & { record: OutcomeRecord };
  candidate: Candidate;
  checks: readonly CheckRun[];
  policyDigest: string;
  statecraftVersion: string;
  /** The boundary the checks ran under (R12): bound by its mechanism, version and profile digest. */
  boundary: BoundaryRecord;
}): Receipt {
  const { intent, outcome } = input;
  return {
    kind: 'statecraft-receipt',
    receiptVersion: 1,
    issuedAt: new Date().toISOString(),
    repository: { path: input.where.target, key: input.where.key },
    baseCommit: intent.record.baseCommit,
    candidate: {
      commit: input.candidate.commit,
      tree: input.candidate.tree,
      madeBy: input.candidate.madeBy,
      // What the attempt started from: its adapter's work is what lies between the two (R13.2).
      ...(input.candidate.start === 'not-recorded' ? {} : { start: input.candidate.start }),
    },
    checks: input.checks.map((check) => ({
      command: check.command,
      program: check.program,
      shell: check.shell,
      exitCode: check.exitCode ?? -1,
      durationMs: check.durationMs,
      stdout: { sha256: check.stdout.sha256, bytes: check.stdout.bytes },
      stderr: { sha256: check.stderr.sha256, bytes: check.stderr.bytes },
    })),
    policyDigest: input.policyDigest,
    statecraft: { version: input.statecraftVersion },
    adapter: outcome.record.result.adapter,
    provider: outcome.record.result.provider,
    qualification: intent.record.qualification,
    boundary: { mechanism: input.boundary.mechanism, version: input.boundary.version, profileDigest: input.boundary.profileDigest },
    attempt: { runId: intent.record.runId, attempt: intent.record.attempt, intent: intent.digest, outcome: outcome.digest },
    signature: 'unsigned',
  };
}
