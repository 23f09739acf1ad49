import { closeSync, openSync, readdirSync, readFileSync, readlinkSync, readSync } from 'node:fs';

/** The environment variable carrying the attempt tag into every descendant. */
export const ATTEMPT_TAG_VARIABLE = 'STATECRAFT_ATTEMPT_TAG';

/**
 * Finds the living processes of one attempt by reading /proc (R7.3): every process whose
 * environment carries the attempt tag — which finds descendants that left the process group or
 * the session — and, when given, every member of the attempt's process group. Zombies are dead
 * (they only wait to be reaped) and are not counted. Synchronous: one pass over /proc takes a few
 * milliseconds and must see a consistent moment, not interleave with the processes it looks for.
 */
export function findAttemptProcesses(attemptTag: string, processGroup?: number, age: ProcessAge = 'any'): number[] {
  const marker = Buffer.from(`${ATTEMPT_TAG_VARIABLE}=${attemptTag}\0`);
  const found: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return found; // No /proc (not Linux): the sweep sees nothing, and the blind spots say so.
  }
  const notBefore = age === 'started-since-this-process' ? ownStartTime() : 0;
  // Pids at or below this were handed out before the attempt's first spawn: not read at all.
  const floor = age === 'started-since-this-process' ? pidFloorOf(attemptTag) : 0;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid <= floor || pid === process.pid) continue;
    const status = readStat(pid);
    if (status === undefined || status.state === 'Z' || status.state === 'X' || status.startTime < notBefore) continue;
    if ((processGroup !== undefined && status.processGroup === processGroup) || carriesTag(pid, marker)) found.push(pid);
  }
  return found;
}

/**
 * Where the kernel's pid allocation stood just before an attempt's first spawn (spawnContained
 * marks it): the last pid handed out, how many tasks had been created since boot, and how many
 * were alive. Pids are handed out in increasing order from the last one, skipping those in use,
 * until they wrap at `pid_max`; so every process of the attempt has a higher pid than the mark's,
 * unless the allocation wrapped since — which a lower last pid shows, or, for a wrap all the way
 * round, needs the allocation to pass over every pid: at most one step for each task created since
 * plus one for each pid in use, and unless those are fewer than `pid_max` every pid is read (pidFloor).
 */
export interface PidMark {
  lastPid: number;
  created: number;
  alive: number;
}

/** The marks by attempt tag: the first spawn with a tag is its attempt's earliest process. */
const pidMarks = new Map<string, PidMark>();

/** Marks where pid allocation stands, before the first spawn of the attempt with this tag. */
export function markAttemptSpawn(attemptTag: string): void {
  if (pidMarks.has(attemptTag)) return;
  const mark = readPidMark();
  if (mark !== undefined) pidMarks.set(attemptTag, mark);
}

/**
 * The highest pid no process of the attempt can have, or 0 (read every pid) when that cannot be
 * known: no mark, /proc not this process's, or an allocation that may have wrapped since. Pure,
 * so that the wrap reasoning is tested on its own (packages/adapter/test/pid-floor.test.ts).
 */
export function pidFloor(mark: PidMark | undefined, now: PidMark | undefined, pidMax: number | undefined): number {
  if (mark === undefined || now === undefined || pidMax === undefined) return 0;
  if (now.lastPid < mark.lastPid || now.created < mark.created) return 0;
  // A full turn passes over every pid from 300 (the kernel's reserved ones) to pid_max. A pid in use
  // is a task's own, or a process group's or session's whose leader is gone: at most three per task.
  const steps = now.created - mark.created + 3 * Math.max(mark.alive, now.alive);
  return steps < pidMax - 300 ? mark.lastPid : 0;
}

function pidFloorOf(attemptTag: string): number {
  const mark = pidMarks.get(attemptTag);
  return mark === undefined ? 0 : pidFloor(mark, readPidMark(), readPidMax());
}

/** /proc/loadavg's running/total tasks and last pid, and /proc/stat's tasks created since boot; read in that order. */
function readPidMark(): PidMark | undefined {
  if (!procShowsThisProcess()) return undefined;
  try {
    // Created first: a task made between the two reads only makes the count of steps larger.
    const created = Number(/^processes (\d+)$/m.exec(readFileSync('/proc/stat', 'latin1'))?.[1]);
    const fields = readFileSync('/proc/loadavg', 'latin1').trim().split(' ');
    const alive = Number(fields[3]?.split('/')[1]);
    const lastPid = Number(fields[4]);
    return [created, alive, lastPid].every((value) => Number.isSafeInteger(value) && value >= 0) ? { lastPid, created, alive } : undefined;
  } catch {
    return undefined;
  }
}

function readPidMax(): number | undefined {
  try {
    const value = Number(readFileSync('/proc/sys/kernel/pid_max', 'latin1').trim());
    return Number.isSafeInteger(value) && value > 300 ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Whether /proc shows this process's pid namespace (a container may mount another's). */
let procIsOurs: boolean | undefined;
function procShowsThisProcess(): boolean {
  if (procIsOurs === undefined) {
    try {
      procIsOurs = readlinkSync('/proc/self') === String(process.pid);
    } catch {
      procIsOurs = false;
    }
  }
  return procIsOurs;
}

/**
 * `started-since-this-process`: for the supervisor that spawned the attempt. A process started
 * before it cannot be one of that attempt's — the tag did not exist yet, and the attempt's group
 * was made later — so its environment is not read (most of the machine's processes, every sweep).
 * `any`: for a later reader (doctor), to whom the attempt's processes are all older.
 */
export type ProcessAge = 'any' | 'started-since-this-process';

/**
 * This process's start, in clock ticks since boot; 0 (nothing skipped) when it cannot be read.
 * Read once: it never changes, and every sweep asks for it.
 */
let ownStart: number | undefined;
function ownStartTime(): number {
  ownStart ??= startTimeOfThisProcess() ?? 0;
  return ownStart;
}

/**
 * This process's start, in clock ticks since boot, read through /proc/self (so whichever PID
 * namespace /proc numbers, it is this process's own line); undefined when it cannot be read. With
 * the pid it identifies the process: another process given the same number, in another namespace
 * or after this one, started later (the boundary probe's supervisor-hidden check, R12).
 */
export function startTimeOfThisProcess(): number | undefined {
  const own = readStat('self')?.startTime;
  return own !== undefined && Number.isFinite(own) ? own : undefined;
}

/**
 * Whether a process exists and is not yet a zombie. Used for pids already known to be the
 * attempt's: a process that is dying has released its memory, so its environment reads empty and
 * the tag no longer finds it, though it has not finished exiting (a namespace's first process waits
 * in its exit for every other process in the namespace).
 */
export function isLiving(pid: number): boolean {
  const status = readStat(pid);
  return status !== undefined && status.state !== 'Z' && status.state !== 'X';
}

/**
 * Room for one /proc/<pid>/stat line (a few hundred bytes; the command name in it is at most 64),
 * reused for every process of a sweep: `readFileSync` sizes its buffer from a stat that reports 0
 * for /proc files, so it allocated 64 KiB per process read, every sweep of every attempt.
 */
let statBuffer: Buffer | undefined;

/** Fields of /proc/<pid>/stat after the command name, which may itself contain spaces and parens. */
function readStat(pid: number | 'self'): { state: string; processGroup: number; startTime: number } | undefined {
  let text: string;
  try {
    const fd = openSync(`/proc/${pid}/stat`, 'r');
    // Made on first use, not at load: a bundle that never sweeps (an adapter's) carries none of it.
    statBuffer ??= Buffer.alloc(4096);
    try {
      text = statBuffer.toString('latin1', 0, readSync(fd, statBuffer, 0, statBuffer.length, 0));
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined; // Gone between the listing and the read.
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // proc(5): state is field 3, pgrp field 5, starttime field 22; fields[0] is field 3.
  const state = fields[0];
  const processGroup = Number(fields[2]);
  const startTime = Number(fields[19]);
  return state === undefined ? undefined : { state, processGroup, startTime: Number.isFinite(startTime) ? startTime : Number.POSITIVE_INFINITY };
}

function carriesTag(pid: number, marker: Buffer): boolean {
  let environ: Buffer;
  try {
    environ = readFileSync(`/proc/${pid}/environ`);
  } catch {
    return false; // Another user's process, or gone: not one of ours to see.
  }
  const at = environ.indexOf(marker);
  // The name must start a variable: at the beginning, or right after the previous one's NUL.
  return at === 0 || (at > 0 && environ[at - 1] === 0);
}

/** A process's command line for the record, or `not-recorded` when it cannot be read. */
export function describeCommand(pid: number): string {
  try {
    const text = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter((part) => part !== '')
      .join(' ');
    return text === '' ? 'not-recorded' : text;
  } catch {
    return 'not-recorded';
  }
}
