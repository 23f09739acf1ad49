import { lstat } from 'node:fs/promises';
import {
  attemptWorkspaceLocation,
  registeredGitDirectory,
  restoreWorkspaceGit,
  stateDirectoryNotOwn,
  workspaceLocation,
  type IntentRecord,
  type ResolvedTarget,
  type WorkspaceGitRestoration,
} from '@statecraft/records';

/** What became of a lost attempt's workspace git: no workspace left, none registered there, or what was put back. */
export type LostWorkspaceGit = { workspace: string } & (
  { state: 'no-workspace' } | { state: 'not-registered' } | { state: 'not-own'; why: string } | ({ state: 'restored' } & WorkspaceGitRestoration)
);

/**
 * The git pointer and registration of the workspace a lost supervisor's attempt ran in, put back as
 * statecraft made them (workspace-git-as-made.ts), as the end of that attempt would have: its agent
 * may have replaced `.git` with a git directory whose configuration the operator's own git, run in
 * the workspace once the attempt is concluded, would obey (issue 29 item 3). The place is derived
 * from the run id and attempt (the run's own, or `<run>-<n>` when the intent names that branch),
 * never from a path a record holds; read from the file system alone, no git run there.
 */
export async function restoreLostWorkspaceGit(target: ResolvedTarget, intent: IntentRecord): Promise<LostWorkspaceGit> {
  const own = attemptWorkspaceLocation(target.path, intent.runId, intent.attempt);
  const { path } = intent.branch === own.branch ? own : workspaceLocation(target.path, intent.runId);
  // Nothing is removed or written through a link on the way to the workspace (decision 0420).
  const notOwn = stateDirectoryNotOwn(target.path);
  if (notOwn !== undefined) return { workspace: path, state: 'not-own', why: notOwn };
  const found = await lstat(path).catch(() => undefined);
  if (found?.isDirectory() !== true) return { workspace: path, state: 'no-workspace' };
  const gitDirectory = await registeredGitDirectory(target.commonDirectory, path);
  if (gitDirectory === undefined) return { workspace: path, state: 'not-registered' };
  return { workspace: path, state: 'restored', ...(await restoreWorkspaceGit(path, gitDirectory)) };
}
