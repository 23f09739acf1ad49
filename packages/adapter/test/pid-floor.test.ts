import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ATTEMPT_TAG_VARIABLE, findAttemptProcesses, markAttemptSpawn, pidFloor } from '../src/supervise/find-attempt-processes.js';

const mark = { lastPid: 20_000, created: 1_000_000, alive: 200 };

// The leftover sweep reads /proc/<pid>/stat only above a floor: every process of an attempt was
// handed a pid after its first spawn, unless allocation wrapped since (R7.3).
describe('the pids a sweep may skip', () => {
  it('are those handed out before the mark, while allocation cannot have wrapped since', () => {
    expect(pidFloor(mark, { lastPid: 20_050, created: 1_000_060, alive: 210 }, 32_768)).toBe(20_000);
  });

  it('are none once the last pid is lower than the mark: allocation wrapped', () => {
    expect(pidFloor(mark, { lastPid: 400, created: 1_000_060, alive: 210 }, 32_768)).toBe(0);
  });

  it('are none when enough tasks were created, or enough pids are in use, for a turn all the way round', () => {
    // 32,468 steps pass over every pid from 300 to pid_max; 32,000 creations and 3 × 210 pids in use may.
    expect(pidFloor(mark, { lastPid: 20_050, created: 1_032_000, alive: 210 }, 32_768)).toBe(0);
    expect(pidFloor(mark, { lastPid: 20_050, created: 1_000_060, alive: 10_900 }, 32_768)).toBe(0);
  });

  it('are none when anything is unknown: no mark, an unreadable /proc, no pid_max', () => {
    expect(pidFloor(undefined, mark, 32_768)).toBe(0);
    expect(pidFloor(mark, undefined, 32_768)).toBe(0);
    expect(pidFloor(mark, { ...mark, created: mark.created - 1 }, 32_768)).toBe(0);
    expect(pidFloor(mark, mark, undefined)).toBe(0);
  });

  it('still finds a tagged process that left its group and session after the mark, and not one tagged before it', async () => {
    const tag = `statecraft-pid-floor-${randomUUID()}`;
    // detached: the child calls setsid(), leaving this process's group and session.
    const started = (): { pid: number; stop: () => void } => {
      const child = spawn('sleep', ['30'], { env: { PATH: process.env.PATH, [ATTEMPT_TAG_VARIABLE]: tag }, stdio: 'ignore', detached: true });
      return { pid: child.pid!, stop: () => process.kill(child.pid!, 'SIGKILL') };
    };
    const before = started();
    markAttemptSpawn(tag);
    const after = started();
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const found = findAttemptProcesses(tag, undefined, 'started-since-this-process');
      expect(found).toContain(after.pid);
      // Tagged before the mark: below the floor, never read (a real attempt has no process then).
      expect(found).not.toContain(before.pid);
      expect(findAttemptProcesses(tag, undefined, 'any')).toEqual(expect.arrayContaining([before.pid, after.pid]));
    } finally {
      before.stop();
      after.stop();
    }
  });
});
