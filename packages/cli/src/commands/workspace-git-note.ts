import type { Launch } from '@statecraft/run';
import type { HumanLines } from '../render/human-lines.js';

/**
 * What the end of the attempt put back in the workspace's git (workspace-git-as-made.ts), said on
 * stderr beside the answer: the agent changed what the operator's own git would read there.
 * Nothing when it was as made. Each line is escaped whole where it is written (writeHumanLines).
 */
export function workspaceGitNote(launch: Extract<Launch, { kind: 'concluded' }>): HumanLines {
  const found = launch.workspaceGit;
  const workspace = launch.intent.record.workspace;
  if (found === 'not-registered') {
    return [
      `statecraft: no worktree of the repository is registered at ${workspace}: its .git is not what statecraft made; do not run git there (remove the directory, then git worktree prune)`,
    ];
  }
  const lines = found.restored.map((change) => `statecraft: the attempt left ${change.path} ${change.what}; restored as statecraft made it`);
  if ('failed' in found) lines.push(`statecraft: ${found.failed}; do not run git in ${workspace} until it is (statecraft doctor names it)`);
  return lines;
}
