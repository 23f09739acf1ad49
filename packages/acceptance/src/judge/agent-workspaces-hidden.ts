import { lstat, realpath } from 'node:fs/promises';
import { dirname } from 'node:path';
import { withHiddenPaths } from '@statecraft/adapter';
import { workspaceLocation } from '@statecraft/run';
import type { CheckSandbox } from './check-sandbox.js';

/**
 * The checks' sandbox with the target's agent workspaces (`.statecraft/state/workspaces`) hidden
 * (R13.3, R12): they sit beside the candidate's worktree and hold what agents left outside their
 * candidates — ignored files above all — which a check, or a link a check made, would otherwise
 * read as if the candidate held it. Hidden only when it is a directory reached through no
 * symbolic link (a mount follows links, as authority-read-only.ts says); under `--boundary none`
 * nothing is applied, as the record says.
 */
export async function withAgentWorkspacesHidden(sandbox: CheckSandbox, target: string): Promise<CheckSandbox> {
  if (sandbox.established === undefined) return sandbox;
  const root = await realpath(target).catch(() => undefined);
  if (root === undefined) return sandbox;
  const path = dirname(workspaceLocation(root, 'any').path);
  const kind = await lstat(path).catch(() => undefined);
  if (kind?.isDirectory() !== true || (await realpath(path).catch(() => undefined)) !== path) return sandbox;
  const established = withHiddenPaths(sandbox.established, [{ path, role: 'agent-workspaces' }]);
  return { ...sandbox, established, boundary: established.record };
}
