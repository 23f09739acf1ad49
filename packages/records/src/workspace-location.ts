import { join } from 'node:path';

/** The target-relative directory holding workspaces; never committed. */
export const STATE_DIRECTORY = '.statecraft/state';

/** The run's workspace directory and branch names, derived from the run id. */
export function workspaceLocation(targetPath: string, runId: string): { path: string; branch: string } {
  return { path: join(targetPath, STATE_DIRECTORY, 'workspaces', runId), branch: `statecraft/${runId}` };
}
