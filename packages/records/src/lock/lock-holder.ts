import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import * as z from 'zod';
import { openRegularFile, RecordTimeSchema } from '@statecraft/adapter';

/** Who holds a target's lock: enough to name the live attempt in a refusal (R8.5). */
export const LockHolderSchema = z.strictObject({
  pid: z.int().positive(),
  host: z.string(),
  runId: z.string().min(1),
  attempt: z.int().positive(),
  since: RecordTimeSchema,
  /**
   * What the holder is doing: supervising the attempt, or judging it (`statecraft accept`), so a
   * refusal names the right one. Absent in a lock written before the field: an attempt.
   */
  holding: z.enum(['attempt', 'acceptance', 'reconciliation', 'land', 'prune', 'run', 'collect']).optional(),
  /** With `run`: how many attempts the run started together, its attempts 1 to `attempts`. */
  attempts: z.int().positive().optional(),
});
export type LockHolder = z.infer<typeof LockHolderSchema>;

/**
 * One lock file as found at one moment: who it names, and an identity that no later lock file
 * shares (its inode and its exact bytes), so a takeover can tell "the stale lock I judged" from
 * "a fresh lock someone linked in its place since".
 */
export type LockInstance = { kind: 'gone' } | { kind: 'found'; holder: LockHolder | 'unreadable'; identity: string };

/** Reads who holds a lock; `gone` if it vanished meanwhile, `unreadable` if it is not a lock record. */
export async function readLockHolder(lockFile: string): Promise<LockHolder | 'gone' | 'unreadable'> {
  const instance = await readLockInstance(lockFile);
  return instance.kind === 'gone' ? 'gone' : instance.holder;
}

/** The most bytes of a lock file read: far more than any lock statecraft writes. */
const LOCK_FILE_BOUND_BYTES = 64 * 1024;

/** Reads a lock file with its identity: bytes and inode from one open file, so they belong together. */
export async function readLockInstance(lockFile: string): Promise<LockInstance> {
  let handle;
  try {
    handle = await openRegularFile(lockFile);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'gone' };
    throw error;
  }
  try {
    const status = await handle.stat({ bigint: true });
    // A lock statecraft writes is a few hundred bytes: a larger file is not one, and is read no
    // further than the bound (a 3 GiB file there must not cost 3 GiB), its size in its identity.
    const buffer = Buffer.alloc(LOCK_FILE_BOUND_BYTES + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const bytes = buffer.subarray(0, bytesRead);
    const identity = createHash('sha256').update(`${status.dev}:${status.ino}:${status.size}:`).update(bytes).digest('hex').slice(0, 32);
    return { kind: 'found', holder: bytesRead > LOCK_FILE_BOUND_BYTES ? 'unreadable' : parseLockHolder(bytes.toString('utf8')), identity };
  } finally {
    await handle.close();
  }
}

function parseLockHolder(text: string): LockHolder | 'unreadable' {
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
  } catch (error) {
    // EPERM: the process exists but belongs to someone else — alive.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
  // A killed supervisor its parent has not yet reaped still answers signal 0: a zombie holds nothing.
  return !isZombie(holder.pid);
}

/** Whether /proc says the process has exited and waits only to be reaped (state Z); unreadable: not known to be. */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The state follows the command name, which is in parentheses and may hold any character.
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false;
  }
}
