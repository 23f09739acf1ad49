import { stat } from 'node:fs/promises';
import type { SuperviseAnswer } from './options.js';

type WorkspaceRefusal = Extract<SuperviseAnswer, { kind: 'refused' }>;

/**
 * R7.1: the child runs in the request's workspace, so a workspace that is missing or is not a
 * directory is refused here, before anything is spawned. `undefined` means the workspace is usable.
 */
export async function checkWorkspace(path: string): Promise<WorkspaceRefusal | undefined> {
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(path)).isDirectory();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') {
      return {
        kind: 'refused',
        reason: 'workspace-missing',
        path,
        message: `The workspace ${path} does not exist; refused before spawn, no process created.`,
      };
    }
    throw new Error(`Could not inspect the workspace ${path}`, { cause: error });
  }
  if (isDirectory) return undefined;
  return {
    kind: 'refused',
    reason: 'workspace-not-directory',
    path,
    message: `The workspace ${path} is not a directory; refused before spawn, no process created.`,
  };
}
