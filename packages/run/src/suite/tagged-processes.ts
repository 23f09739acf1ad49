import { readFileSync, readdirSync } from 'node:fs';
import { ATTEMPT_TAG_VARIABLE } from '@statecraft/adapter';

/** A process whose environment carries a given attempt tag. */
export interface TaggedProcess {
  pid: number;
  command: string;
}

/**
 * Every live process carrying `tag` in its environment (docs/architecture.md, The supervisor: every process an attempt
 * starts inherits the tag, so /proc finds the ones that left the process group or the session).
 * The suite uses it as its own witness, independent of the supervisor's survivor probe (R7.3).
 * `not-observable` where there is no /proc to read.
 */
export function findTaggedProcesses(tag: string): TaggedProcess[] | 'not-observable' {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return 'not-observable';
  }
  const needle = Buffer.from(`${ATTEMPT_TAG_VARIABLE}=${tag}\0`);
  const found: TaggedProcess[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`);
      if (!environ.includes(needle)) continue;
      if (isZombie(entry)) continue;
      found.push({ pid: Number(entry), command: readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim() });
    } catch {
      // The process ended while we looked, or is not ours to read: not a survivor we can name.
    }
  }
  return found;
}

/** A zombie has ended; it only waits for its parent to reap it. */
function isZombie(pid: string): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}
