import { describeUnopenable } from '@statecraft/adapter';
import { isLive, readLockHolder } from '../lock/lock-holder.js';
import type { Finding } from './examine-product-home.js';
import { liveHolderOf, type LiveHolder } from '../read/fold-attempts.js';

/**
 * A target's lock as doctor reads it: the attempt its live supervisor holds it for, or none; a lock
 * whose supervisor is gone, or that is not a lock record, is `stale-lock` (the next run takes it
 * over); one `run` cannot open (a FIFO, a device, unreadable) is `home-unusable`: not stale, since
 * `run` and `accept` fail on it (exit 4) rather than take it over.
 */
export async function checkTargetLock(lock: string): Promise<{ live: LiveHolder; findings: Finding[] }> {
  const holder = await readLockHolder(lock).catch((error: unknown) => ({ unopenable: describeUnopenable(error) }));
  if (typeof holder === 'object' && 'unopenable' in holder) {
    const message = `${lock}: the target's lock ${holder.unopenable}: every run and accept of this target fails on it (exit 4) until it is removed; doctor removes nothing`;
    return { live: 'none', findings: [{ kind: 'home-unusable', path: lock, message }] };
  }
  if (typeof holder === 'object' && isLive(holder)) return { live: liveHolderOf(holder), findings: [] };
  if (holder === 'gone') return { live: 'none', findings: [] };
  const who =
    holder === 'unreadable' ? 'an unreadable lock' : `a lock of run ${holder.runId} attempt ${holder.attempt} whose supervisor (pid ${holder.pid}) is gone`;
  return { live: 'none', findings: [{ kind: 'stale-lock', path: lock, message: `${lock}: ${who}; the next run takes it over` }] };
}
