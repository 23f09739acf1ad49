import { join } from 'node:path';

/** The target-relative directory holding workspaces; never committed. */
export const STATE_DIRECTORY = '.statecraft/state';

/** The run's workspace directory and branch names, derived from the run id. */
export function workspaceLocation(targetPath: string, runId: string): { path: string; branch: string } {
  return { path: join(targetPath, STATE_DIRECTORY, 'workspaces', runId), branch: `statecraft/${runId}` };
}

/**
 * The workspace and branch of one attempt of a run that started several together: the first
 * attempt has the run's own (as a run of one attempt does, and as its retries reuse); attempt
 * n ≥ 2 has `<run>-<n>`, a sibling of the run's branch, never beneath it (a ref cannot be both
 * `a/b` and `a/b/c`), and a name no run id has.
 */
export function attemptWorkspaceLocation(targetPath: string, runId: string, attempt: number): { path: string; branch: string } {
  return attempt === 1 ? workspaceLocation(targetPath, runId) : workspaceLocation(targetPath, `${runId}-${attempt}`);
}

/**
 * Every place an attempt of the run may have had, given its attempt numbers: the run's own, and
 * each `<run>-<n>` of an attempt started beside the first. Derived from the run id and numbers,
 * never from a path a record holds.
 */
export function runWorkspaceLocations(targetPath: string, runId: string, attempts: readonly number[]): { path: string; branch: string }[] {
  const numbers = [...new Set([1, ...attempts])].sort((a, b) => a - b);
  return numbers.map((attempt) => attemptWorkspaceLocation(targetPath, runId, attempt));
}
