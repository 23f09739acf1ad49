import { rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Removes the index lock a git killed at the end of an attempt (end-of-attempt-bound.ts) may have
 * left in the workspace's registered git directory: the index is then the one before that git, and
 * the operator's next git in the workspace is not refused. Only called once every git of the
 * attempt's end was killed under the same signal and no process of the attempt survived, so no
 * live process holds the lock. A lock that cannot be removed stays; git then names it itself.
 */
export async function removeStoppedGitIndexLock(gitDirectory: string): Promise<void> {
  await rm(join(gitDirectory, 'index.lock'), { force: true }).catch(() => undefined);
}
