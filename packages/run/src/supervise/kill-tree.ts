import { readFileSync } from 'node:fs';
import type { ContainmentMechanism } from '@statecraft/adapter';
import { findAttemptProcesses } from '@statecraft/adapter';

/**
 * Kills the attempt's whole process tree with SIGKILL (R7.3): nothing it runs gets to bargain
 * with the deadline. In a PID namespace, killing its first process makes the kernel kill every
 * other process in it, `setsid` ones included; `unshare --kill-child` ties that process to the
 * `unshare` we spawned, and both are killed. In the process-group fallback, the group is killed,
 * then every process carrying the attempt tag (those that left the group or session). Returns the
 * pids it sent SIGKILL to.
 */
export function killTree(mechanism: ContainmentMechanism, pid: number, attemptTag: string): number[] {
  const found = findAttemptProcesses(attemptTag, mechanism === 'process-group' ? pid : undefined, 'started-since-this-process');
  // Under the boundary the outer bwrap's only child is the namespace's first process, as with unshare.
  const targets = mechanism === 'pid-namespace' || mechanism === 'bwrap' ? [...childrenOf(pid), pid] : [pid];
  if (mechanism === 'process-group') sendKill(-pid);
  for (const target of [...targets, ...found]) sendKill(target);
  // Returned so the survivor probe can follow them until they have finished exiting.
  return [...new Set([...targets, ...found])];
}

/** SIGKILL, where a process already gone (ESRCH) is success. Anything else is left to the survivor probe. */
export function sendKill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // ESRCH: already gone. EPERM: not ours to kill; the survivor probe will report it.
  }
}

/** The namespace's first process is the `unshare` process's only child. */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(' ')
      .filter((part) => part !== '')
      .map(Number);
  } catch {
    return [];
  }
}
