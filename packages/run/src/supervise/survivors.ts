import { setTimeout as sleep } from 'node:timers/promises';
import type { Survivor } from '@statecraft/adapter';
import { describeCommand, findAttemptProcesses, isLiving } from '@statecraft/adapter';
import { sendKill } from './kill-tree.js';

/** How long the survivor probe allows for killed processes to die and be reaped (R7.2). */
const SURVIVOR_PROBE_MS = 1000;
const POLL_MS = 5;

/**
 * The bounded survivor probe (R7.2, R7.3): looks for the attempt's processes until none is left or
 * the window closes, killing any it finds again (one may have forked while the tree was killed).
 * Processes already known to be the attempt's (`known`) are followed by pid until they have
 * finished exiting: a dying process no longer shows its tag. Whatever is still alive at the end is
 * a survivor, reported with its command line, never as a clean termination.
 */
export async function probeSurvivors(
  attemptTag: string,
  processGroup?: number,
  known: readonly number[] = [],
  windowMs = SURVIVOR_PROBE_MS,
): Promise<Survivor[]> {
  const until = performance.now() + windowMs;
  for (;;) {
    const alive = [...new Set([...findAttemptProcesses(attemptTag, processGroup, 'started-since-this-process'), ...known.filter(isLiving)])];
    if (alive.length === 0) return [];
    if (performance.now() >= until) return alive.map((pid) => ({ pid, command: describeCommand(pid) }));
    for (const pid of alive) sendKill(pid);
    await sleep(POLL_MS);
  }
}

/**
 * At a normal end (the child exited and its pipes closed), anything of the attempt still running
 * was left behind: it is recorded as a survivor — the attempt did not end clean — and killed.
 */
export async function sweepLeftovers(attemptTag: string, processGroup?: number): Promise<Survivor[]> {
  const leftovers = findAttemptProcesses(attemptTag, processGroup, 'started-since-this-process').map((pid) => ({ pid, command: describeCommand(pid) }));
  if (leftovers.length === 0) return [];
  for (const { pid } of leftovers) sendKill(pid);
  if (processGroup !== undefined) sendKill(-processGroup);
  const stillAlive = await probeSurvivors(attemptTag, processGroup, [...leftovers.map((survivor) => survivor.pid)]);
  const known = new Set(leftovers.map((survivor) => survivor.pid));
  return [...leftovers, ...stillAlive.filter((survivor) => !known.has(survivor.pid))];
}
