import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { link, mkdir, open, readFile, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';

/** Who holds a target's lock: enough to name the live attempt in a refusal (R8.5). */
export const LockHolderSchema = z.strictObject({
  pid: z.int().positive(),
  host: z.string(),
  runId: z.string().min(1),
  attempt: z.int().positive(),
  since: z.iso.datetime(),
});
export type LockHolder = z.infer<typeof LockHolderSchema>;

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
 * taken over and the takeover reported. A lock from another host, or whose pid is alive, is
 * live — a reused pid makes a false refusal, the safe direction.
 */
export async function acquireRepositoryLock(lockFile: string, holder: Omit<LockHolder, 'pid' | 'host' | 'since'>): Promise<LockAcquisition> {
  const mine: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString(), ...holder };
  await mkdir(dirname(lockFile), { recursive: true, mode: 0o700 });
  const staging = `${lockFile}.${process.pid}.${randomBytes(4).toString('hex')}`;
  const handle = await open(staging, 'wx', 0o600);
  try {
    await handle.writeFile(JSON.stringify(mine));
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    let reclaimed: 'none' | LockHolder | 'unreadable' = 'none';
    for (let tries = 0; tries < 2; tries += 1) {
      try {
        await link(staging, lockFile);
        return { kind: 'acquired', reclaimed, release: () => releaseRepositoryLock(lockFile, mine) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const current = await readLockHolder(lockFile);
      if (current === 'gone') continue;
      if (current !== 'unreadable' && isLive(current)) {
        return {
          kind: 'refused',
          holder: current,
          message:
            `a live attempt holds this target: run ${current.runId} attempt ${current.attempt} ` +
            `(pid ${current.pid} on ${current.host}, since ${current.since}); refused, nothing appended (R8.5)`,
        };
      }
      // Stale: its supervisor is gone. The lock (not the chain) is removed; the dangling intent stays.
      reclaimed = current;
      await unlink(lockFile).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
    }
    throw new Error(`${lockFile}: the lock changed hands twice while it was being taken; try again`);
  } finally {
    await unlink(staging).catch(() => undefined);
  }
}

/** Reads who holds a lock; `gone` if it vanished meanwhile, `unreadable` if it is not a lock record. */
export async function readLockHolder(lockFile: string): Promise<LockHolder | 'gone' | 'unreadable'> {
  let text: string;
  try {
    text = await readFile(lockFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
  try {
    const parsed = LockHolderSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

/** A holder is live unless its pid is known dead on this very host. */
export function isLive(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else — alive.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Removes the lock only if it is still ours (a takeover by another supervisor is left alone). */
async function releaseRepositoryLock(lockFile: string, mine: LockHolder): Promise<void> {
  const current = await readLockHolder(lockFile);
  if (current === 'gone' || current === 'unreadable') return;
  if (current.pid !== mine.pid || current.runId !== mine.runId || current.attempt !== mine.attempt || current.since !== mine.since) return;
  await unlink(lockFile);
}
