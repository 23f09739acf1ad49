import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { closeSync, fsyncSync, openSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { rmdir, unlink } from 'node:fs/promises';
import { dirname, relative, sep } from 'node:path';
import { makeDirectories } from '@statecraft/adapter';
import { readLockHolder, readLockInstance, isLive, type LockHolder } from './lock-holder.js';
import { linkExclusive, sweepTakeoverClaims, takeOverStaleLock } from './take-over-stale-lock.js';

export { type LockHolder } from './lock-holder.js';

export type LockAcquisition =
  | {
      kind: 'acquired';
      /** A lock left by a supervisor that died (its pid is gone on this host), taken over: reported, never silent. */
      reclaimed: 'none' | LockHolder | 'unreadable';
      release: () => Promise<void>;
    }
  | { kind: 'refused'; holder: LockHolder; message: string };

/**
 * Takes the one-live-attempt lock of a target (R8.5). The lock file is written whole to a
 * private name and hard-linked into place, so it appears atomically and complete, and two
 * supervisors cannot both create it. A lock whose pid is dead on this host is stale: it is
 * taken over — by exactly one supervisor, however many find it stale at once
 * (take-over-stale-lock.ts) — and the takeover reported. A lock from another host, or whose pid
 * is alive, is live — a reused pid makes a false refusal, the safe direction.
 */
export async function acquireRepositoryLock(lockFile: string, holder: Omit<LockHolder, 'pid' | 'host' | 'since'>): Promise<LockAcquisition> {
  const mine: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString(), ...holder };
  // Synchronous up to the link: nothing else of this process runs before it holds the lock, and
  // each step would otherwise be a trip to the thread pool (the fsync is waited for either way).
  const staging = `${lockFile}.${process.pid}.${randomBytes(4).toString('hex')}`;
  const { descriptor, made } = openStaging(staging);
  try {
    writeFileSync(descriptor, JSON.stringify(mine));
    fsyncSync(descriptor);
  } catch (error) {
    // A full disk: the staging file would be left behind by every failed try; it names nothing.
    closeSync(descriptor);
    rmSync(staging, { force: true });
    throw Object.assign(new Error(`${lockFile}: cannot write the lock (${(error as Error).message})`, { cause: error }), { path: lockFile });
  }
  closeSync(descriptor);
  try {
    let reclaimed: 'none' | LockHolder | 'unreadable' = 'none';
    // Each pass either ends or follows another supervisor's progress (it linked, or removed a stale lock).
    for (let tries = 0; tries < 5; tries += 1) {
      if (linkExclusive(staging, lockFile)) {
        sweepTakeoverClaims(lockFile);
        return { kind: 'acquired', reclaimed, release: () => releaseRepositoryLock(lockFile, mine, made) };
      }
      const current = await readLockInstance(lockFile);
      if (current.kind === 'gone') continue;
      if (current.holder !== 'unreadable' && isLive(current.holder)) return refusedByLiveHolder(current.holder);
      // Stale: its supervisor is gone. The lock (not the chain) is removed; the dangling intent stays.
      const takeover = await takeOverStaleLock(lockFile, current.identity, staging);
      if (takeover.kind === 'in-progress') {
        // The claimant may still lose the free name to a supervisor that arrives after the stale lock
        // is gone; a refusal naming it would name a run that never ran. Wait for the takeover to settle
        // and look again, so the refusal names the attempt that actually holds the target.
        if (await staleLockLeaves(lockFile, current.identity)) continue;
        return refusedByLiveHolder(takeover.claimant, 'is taking over the stale lock of this target');
      }
      if (takeover.kind === 'claim-unreadable') {
        throw new Error(
          `${takeover.path}: not a lock takeover claim (it holds no supervisor record); remove it once no statecraft run is running on this target, and run again`,
        );
      }
      if (takeover.kind === 'removed') reclaimed = current.holder;
    }
    throw new Error(`${lockFile}: the lock changed hands too often while it was being taken; try again`);
  } finally {
    try {
      unlinkSync(staging);
    } catch {
      // Already gone: nothing to take back.
    }
  }
}

/**
 * Opens the lock's private staging file, making the target's directory first: the first directory
 * this made (mkdir's answer), so that a release can take back what nothing was written in. A
 * supervisor that just took back the directory it made (releaseRepositoryLock) can remove it
 * between the mkdir and the open: made again, a bounded number of times.
 */
function openStaging(staging: string): { descriptor: number; made: string | undefined } {
  for (let tries = 0; ; tries += 1) {
    const made = makeDirectories(dirname(staging), 0o700);
    try {
      return { descriptor: openSync(staging, 'wx', 0o600), made };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || tries >= 4) throw error;
    }
  }
}

/** How long a live claimant's takeover may take before the refusal names the claimant itself. */
const TAKEOVER_SETTLE_MS = 2_000;

/** Polls until the lock file identified by `identity` is no longer in place; false if it stays for TAKEOVER_SETTLE_MS. */
async function staleLockLeaves(lockFile: string, identity: string): Promise<boolean> {
  for (const deadline = Date.now() + TAKEOVER_SETTLE_MS; Date.now() < deadline;) {
    const now = await readLockInstance(lockFile);
    if (now.kind === 'gone' || now.identity !== identity) return true;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return false;
}

function refusedByLiveHolder(holder: LockHolder, what = 'holds this target'): LockAcquisition {
  return {
    kind: 'refused',
    holder,
    message: `${describeHolder(holder, what)} ` + `(pid ${holder.pid} on ${holder.host}, since ${holder.since}); refused, nothing appended`,
  };
}

function describeHolder(holder: LockHolder, what: string): string {
  if (holder.holding === 'acceptance') return `the acceptance of run ${holder.runId} attempt ${holder.attempt} ${what}`;
  if (holder.holding === 'land') return `the landing of run ${holder.runId} attempt ${holder.attempt} ${what}`;
  if (holder.holding === 'prune') return `a prune ${what}`;
  if (holder.holding === 'run') return `run ${holder.runId} (${holder.attempts ?? 1} attempts) ${what}`;
  if (holder.holding === 'reconciliation') return `\`statecraft run reconcile\` ${what}`;
  return `a live attempt ${what}: run ${holder.runId} attempt ${holder.attempt}`;
}

/**
 * Removes the lock only if it is still ours (a takeover by another supervisor is left alone); then
 * the directories taking it made (`made`, the first of them), when nothing was written in them: a
 * refusal before anything is recorded leaves no target's directory for `doctor` to list. Only
 * empty directories are removed (rmdir), innermost first, stopping at the first that is not.
 */
async function releaseRepositoryLock(lockFile: string, mine: LockHolder, made: string | undefined): Promise<void> {
  const current = await readLockHolder(lockFile);
  if (current === 'gone' || current === 'unreadable') return;
  if (current.pid !== mine.pid || current.runId !== mine.runId || current.attempt !== mine.attempt || current.since !== mine.since) return;
  await unlink(lockFile);
  if (made !== undefined) await removeEmptyDirectories(dirname(lockFile), made);
}

/** rmdir from `innermost` up to `outermost` (which contains it, or is it); stops at the first that is not empty. */
async function removeEmptyDirectories(innermost: string, outermost: string): Promise<void> {
  const steps = relative(outermost, innermost);
  if (steps.startsWith('..')) return;
  const depth = steps === '' ? 0 : steps.split(sep).length;
  let directory = innermost;
  for (let step = 0; step <= depth; step += 1) {
    const removed = await rmdir(directory).then(
      () => true,
      () => false,
    );
    if (!removed) return;
    directory = dirname(directory);
  }
}
