import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ATTEMPT_FILE_NAMES } from '../attempt-files.js';
import { attemptWorkspaceLocation, workspaceLocation } from '../workspace-location.js';
import type { Finding } from './examine-product-home.js';

/**
 * Which of an attempt's files only an attempt whose intent was appended can have: its result (written
 * as it concludes, conclude-attempt.ts) and a stream with bytes in it (the adapter starts only once
 * its intent is durable, R8.4; under the boundary the stream's file is opened before, empty, while
 * the sandbox waits at its gate). Empty when none is there: then the supervisor may well have
 * stopped before its intent.
 */
export async function filesWrittenAfterIntent(attemptDirectory: string): Promise<string[]> {
  const sizeOf = (name: string) =>
    stat(join(attemptDirectory, name)).then(
      (info) => (info.isFile() ? info.size : undefined),
      () => undefined,
    );
  const [result, stream] = await Promise.all([sizeOf(ATTEMPT_FILE_NAMES.result), sizeOf(ATTEMPT_FILE_NAMES.stream)]);
  return [
    ...(result === undefined ? [] : [ATTEMPT_FILE_NAMES.result]),
    ...(stream === undefined || stream === 0 ? [] : [`${ATTEMPT_FILE_NAMES.stream} (${stream} bytes)`]),
  ];
}

/**
 * An attempt's files no record names, though some of them follow an intent: its records are gone
 * from the chain. Its worktree and branch, where `run` makes them, are named as what they are — what
 * that attempt did — and never offered for removal, as a supervisor stopped before its intent's are.
 */
export function missingAttemptRecords(path: string, attempt: { runId: string; attempt: string }, written: readonly string[], target: string): Finding {
  const number = Number(attempt.attempt);
  const workspace = target === 'not-recorded' ? undefined : workspaceLocation(target, attempt.runId);
  // Attempt n ≥ 2 worked in `<run>-<n>` when started beside the first, in the run's own when a retry.
  const beside = target === 'not-recorded' || number < 2 ? undefined : attemptWorkspaceLocation(target, attempt.runId, number);
  const left =
    workspace === undefined
      ? `its branch statecraft/${attempt.runId} and workspace may be left in the target repository, which this home does not name`
      : beside === undefined
        ? `its worktree ${workspace.path} and branch ${workspace.branch} in ${target}, if left, hold what it did: look there before removing anything`
        : `its worktree and branch in ${target}, if left, hold what it did (${beside.path} on ${beside.branch} for an attempt started beside the first, else the run's own ${workspace.path} on ${workspace.branch}): look there before removing anything`;
  return {
    kind: 'missing-attempt-records',
    path,
    message: `${path}: files of run ${attempt.runId} attempt ${attempt.attempt} that no record names, though ${written.join(' and ')} ${written.length === 1 ? 'is' : 'are'} written only after an attempt's intent is appended: the attempt's records are missing from the chain (removed, or the chain was cut); ${left}; doctor removes nothing`,
  };
}
