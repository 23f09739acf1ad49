import { appendRecord, writingFile, type ChainPaths, type LandRecord, type OpenedChain } from '@statecraft/records';
import type { Landed } from './land-attempt.js';
import { landCandidate } from './land-commit.js';

/**
 * The last step of every landing, once each refusal has been checked: the candidate brought into
 * the operator's branch (land-commit.ts), then the land record appended at the verified tip,
 * naming the acceptance line and the receipt the landing relied on. A refusal of the move appends nothing.
 */
export async function landAndRecord(input: {
  target: string;
  paths: ChainPaths;
  opening: OpenedChain;
  candidate: string;
  squash: boolean;
  message: string;
  runId: string;
  attempt: number;
  acceptance: string;
  receipt: { path: string; sha256: string };
}): Promise<Landed> {
  const { target, paths, opening, candidate } = input;
  const moved = await landCandidate({ target, candidate, squash: input.squash, message: input.message });
  if (moved.kind === 'refused') return { kind: 'refused', reason: moved.reason, message: `${moved.message}; nothing appended` };
  const appended = await writingFile(paths.chain, () =>
    appendRecord(
      paths.chain,
      { head: opening.head, nextSeq: opening.nextSeq, length: opening.length, torn: opening.torn },
      {
        at: new Date().toISOString(),
        kind: 'land',
        runId: input.runId,
        attempt: input.attempt,
        acceptance: input.acceptance,
        receipt: input.receipt,
        candidate,
        branch: moved.branch,
        before: moved.before,
        commit: moved.commit,
        method: moved.method,
      },
    ),
  );
  return { kind: 'landed', target, record: appended.record as LandRecord, line: appended.record.seq + 1, sha256: appended.digest };
}
