import type { Launch, LostWorkspaceGit } from '@statecraft/run';
import type { HumanLines } from '../render/human-lines.js';

type Restoration = Exclude<Extract<Launch, { kind: 'concluded' }>['workspaceGit'], 'not-registered'>;

/**
 * What the end of the attempt put back in the workspace's git (workspace-git-as-made.ts), said on
 * stderr beside the answer: the agent changed what the operator's own git would read there.
 * Nothing when it was as made.
 */
export function workspaceGitNote(launch: Extract<Launch, { kind: 'concluded' }>): HumanLines {
  const found = launch.workspaceGit;
  return found === 'not-registered' ? notRegistered(launch.intent.record.workspace) : restorationLines(found, launch.intent.record.workspace);
}

/** The same for an attempt `run reconcile` concluded after its supervisor was lost; nothing when there was nothing to put back. */
export function lostWorkspaceGitNote(found: LostWorkspaceGit): string[] {
  if (found.state === 'no-workspace') return [];
  if (found.state === 'not-own') return [`${found.why}; its git was not put back: do not run git in ${found.workspace}`];
  return found.state === 'not-registered' ? notRegistered(found.workspace) : restorationLines(found, found.workspace);
}

function notRegistered(workspace: string): string[] {
  return [
    `no worktree of the repository is registered at ${workspace}: its .git is not what statecraft made; do not run git there (remove the directory, then git worktree prune)`,
  ];
}

function restorationLines(found: Restoration, workspace: string): string[] {
  const lines = found.restored.map((change) => `the attempt left ${change.path} ${change.what}; restored as statecraft made it`);
  if ('failed' in found) lines.push(`${found.failed}; do not run git in ${workspace} until it is (statecraft doctor names it)`);
  return lines;
}
