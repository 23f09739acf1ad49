import { linkSync, readdirSync, unlinkSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isLive, readLockHolder, readLockInstance, type LockHolder } from './lock-holder.js';

/*
 * Why a stale lock has exactly one taker, under any interleaving (R8.5).
 *
 * Removing a lock file and linking a new one are two steps, and between "I read a stale lock" and
 * "I unlink the lock" another supervisor may have replaced it with its own, live one — unlinking
 * that is how two runs both came to hold a target. So a lock file is removed only by:
 *   (a) its own holder, on release (it compares the file with its own record first), or
 *   (b) the one live claimant of that very lock file (its identity: inode and bytes).
 *
 * A claim on stale lock X is a file `<lock>.takeover-<identity of X>.<generation>`, created with
 * link(2), which fails if the name exists: of all who try one name, exactly one succeeds. The
 * claim's bytes are the claimant's own holder record. Generation 0 is tried first; generation g+1
 * is tried only after the claimant of generation g was found dead (its pid gone on this host), so
 * a claimant killed between its claim and its takeover cannot jam the target for good.
 *
 * At most one live claimant of X exists while X is in place. Claims are deleted only by a
 * supervisor that has just acquired the lock (sweepTakeoverClaims), so X is already gone then and
 * — its identity includes its inode and bytes — never comes back. While X is in place, then, each
 * claim name is created at most once. Suppose live claimants C (generation a) and D (generation
 * b > a) both held claims on X at once. Whoever created generation a+1 first found generation a's
 * claimant — C, alive from its claim to its takeover — dead. A live pid is never found dead (a
 * reused pid only makes a dead one look alive), so this cannot happen.
 *
 * After claiming, the claimant reads the lock again and removes it only if it is still X. Nobody
 * else can remove X meanwhile: its holder is dead and the claimant is X's only live claimant. A
 * live lock is therefore never removed by anyone but its holder, so the only way to hold the
 * target is link(2) onto the free name — exactly one winner, as when the lock was never stale.
 * A claimant that finds X already gone, or its claim swept, removes nothing and looks again.
 */

export type StaleLockTakeover =
  /** The stale lock was still in place and this claimant removed it: link the new lock now. */
  | { kind: 'removed' }
  /** The stale lock is no longer in place (someone took it over first): read the lock again. */
  | { kind: 'moved' }
  /** A live supervisor is taking it over right now: it is the attempt that will hold the target. */
  | { kind: 'in-progress'; claimant: LockHolder }
  /** A claim file is not a holder record: someone wrote it by hand; the operator must look. */
  | { kind: 'claim-unreadable'; path: string };

/**
 * Takes over the stale lock file whose identity is `staleIdentity` (read a moment ago from
 * `lockFile`), claiming it with the caller's complete staged holder record `staging`.
 */
export async function takeOverStaleLock(lockFile: string, staleIdentity: string, staging: string): Promise<StaleLockTakeover> {
  for (let generation = 0; ; generation += 1) {
    const claim = `${lockFile}.takeover-${staleIdentity}.${generation}`;
    if (linkExclusive(staging, claim)) break;
    const claimant = await readLockHolder(claim);
    // Swept: some supervisor has acquired the lock since, so the stale one is gone.
    if (claimant === 'gone') return { kind: 'moved' };
    if (claimant === 'unreadable') return { kind: 'claim-unreadable', path: claim };
    if (isLive(claimant)) return { kind: 'in-progress', claimant };
    // Its claimant died mid-takeover: the next generation, which only one of us can create.
  }
  const now = await readLockInstance(lockFile);
  if (now.kind === 'gone' || now.identity !== staleIdentity) return { kind: 'moved' };
  await unlink(lockFile);
  return { kind: 'removed' };
}

/** link(2): creates `to` as another name of `from`, or answers false if `to` exists. */
export function linkExclusive(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Deletes every takeover claim beside the lock. Called only by the lock's new holder: the lock in
 * place is its own, which nobody has claimed (it is alive), so every claim names a lock file that
 * is gone for good, and a claimant still at work finds that and removes nothing.
 */
export function sweepTakeoverClaims(lockFile: string): void {
  const prefix = `${basename(lockFile)}.takeover-`;
  const directory = dirname(lockFile);
  for (const name of readdirSync(directory)) {
    if (!name.startsWith(prefix)) continue;
    try {
      unlinkSync(join(directory, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}
