import { lstat, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { withReadOnlyPaths } from '@statecraft/environment';
import type { BoundaryPath } from '@statecraft/adapter';
import type { CheckSandbox } from './check-sandbox.js';

/**
 * The checks' sandbox with the authority set bound read-only inside the candidate's worktree
 * (R13.5, R12): a check runs the candidate's code, which could otherwise rewrite a test or the
 * suite for the checks after it and put it back before the suite ends, leaving a clean tree. Only
 * an entry that is, in the worktree, a file or directory reached through no symbolic link is
 * bound: a bind follows links, and one pointing out of the worktree (at the hidden product home)
 * would show what the profile hides. Under `--boundary none` nothing is applied, as the record says.
 */
export async function withAuthorityReadOnly(sandbox: CheckSandbox, worktree: string, authority: readonly string[]): Promise<CheckSandbox> {
  if (sandbox.established === undefined) return sandbox;
  const root = await realpath(worktree);
  const bound: BoundaryPath[] = [];
  for (const entry of authority) {
    const path = join(root, entry.replace(/\/$/, ''));
    const kind = await lstat(path).catch(() => undefined);
    if (kind === undefined || !(kind.isFile() || kind.isDirectory())) continue;
    // A link in a parent component leads elsewhere: the real path must be the path itself.
    if ((await realpath(path).catch(() => undefined)) !== path) continue;
    bound.push({ path, role: 'authority' });
  }
  const established = withReadOnlyPaths(sandbox.established, bound);
  return { ...sandbox, established, boundary: established.record };
}
