import { randomBytes } from 'node:crypto';

/** A run id: sortable by start time, unique by a random suffix, safe in a path and a branch name. */
export function newRunId(now: Date = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

/** Run ids given on the command line must have the shape newRunId makes (they become paths). */
export function isRunId(text: string): boolean {
  return /^\d{8}T\d{6}Z-[0-9a-f]{6}$/.test(text);
}
