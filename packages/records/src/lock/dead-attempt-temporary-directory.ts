import { lstatSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isRunId } from '../run-id.js';
import type { LockHolder } from './lock-holder.js';

/** mkdtemp's suffix: six characters from its alphabet. */
const MKDTEMP_SUFFIX = /^[A-Za-z0-9]{6}$/;

/**
 * The TMPDIR of an attempt whose supervisor died outright (R5.5): made by createAttemptTemporaryDirectory
 * as `statecraft-<run>-<attempt>-XXXXXX` and removed only by the supervisor at the attempt's end, it
 * would otherwise stay for ever, with whatever the agent left in it. Removed by the supervisor that
 * took over the dead one's lock, before its own attempt: nothing of the dead attempt can still be
 * using it (its supervisor is gone, and its tree went with it or is an orphan doctor reports). Only
 * a directory of this process's user, not a link, whose name is exactly the dead attempt's, under
 * this process's system temporary directory (one the dead supervisor made under another TMPDIR is
 * not found). A judge's lock is left alone: the next accept finds its checks' TMPDIR by its worktree.
 * Never throws: what cannot be removed stays, as before.
 */
export async function removeDeadAttemptTemporaryDirectory(holder: LockHolder): Promise<void> {
  if (holder.holding === 'acceptance' || !isRunId(holder.runId)) return;
  // A run of several attempts held the lock for all of them: each attempt's TMPDIR is its own.
  const attempts = holder.holding === 'run' ? Array.from({ length: holder.attempts ?? 1 }, (_, index) => index + 1) : [holder.attempt];
  for (const attempt of attempts) await removeTemporaryDirectoriesOf(`statecraft-${holder.runId}-${attempt}-`);
}

/** Each directory named `<prefix>XXXXXX` under the system temporary directory, of this user, not a link. */
async function removeTemporaryDirectoriesOf(prefix: string): Promise<void> {
  const uid = process.getuid?.();
  let names: string[];
  try {
    names = readdirSync(tmpdir()).filter((name) => name.startsWith(prefix) && MKDTEMP_SUFFIX.test(name.slice(prefix.length)));
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(tmpdir(), name);
    try {
      const status = lstatSync(path);
      if (!status.isDirectory() || status.uid !== uid) continue;
      await rm(path, { recursive: true, force: true, maxRetries: 2 });
    } catch {
      // Left as it is: a temporary directory that cannot be removed changes no record.
    }
  }
}
