import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { superviseAdapter } from '@statecraft/run';
import type { SuperviseOptions } from '@statecraft/run';
import type { SupervisedAttempt } from '@statecraft/adapter';
import { scratchDirectories } from '../../../test/fixtures/scratch-directories.js';

/** The supervisor's test programs: real executables, started through their shebang. */
export const fixture = (name: string) => join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'test', 'fixtures', name);

/** A constructed environment with just enough to find `node` for the fixtures' shebang. */
export const baseEnvironment = { PATH: `${dirname(process.execPath)}:/usr/bin:/bin` };

// Removed when the importing test file is done.
const scratch = scratchDirectories();

export const freshDirectory = () => scratch.makeNow('statecraft-supervise');

export const freshTag = () => `test-${randomUUID()}`;

/** Supervises and expects a supervised attempt (not a refusal). */
export async function supervise(options: Partial<SuperviseOptions> & Pick<SuperviseOptions, 'executable'>): Promise<SupervisedAttempt> {
  const answer = await superviseAdapter({
    args: [],
    workspace: freshDirectory(),
    environment: baseEnvironment,
    prompt: 'a prompt',
    deadlineMs: 30_000,
    attemptTag: freshTag(),
    ...options,
  });
  if (answer.kind !== 'supervised') throw new Error(`expected a supervised attempt, got ${JSON.stringify(answer)}`);
  return answer.attempt;
}

/** Alive means present in /proc and not a zombie (a zombie is dead, only not yet reaped). */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** The session a process belongs to (equal to its pid when it called setsid); undefined once it is gone. */
export function sessionOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]);
  } catch {
    return undefined;
  }
}
