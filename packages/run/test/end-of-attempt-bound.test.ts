import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dir, type DirectoryResult } from 'tmp-promise';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { endOfAttempt, endOfAttemptBoundMs } from '@statecraft/run';

// The end of an attempt's git (R7.2, R13.2): its bound, the operator's interrupt, and the index lock
// a stopped git leaves, exercised on real files; end to end in test/e2e/run/run-end-of-attempt-bound.test.ts.

let scratch: DirectoryResult;
beforeEach(async () => {
  scratch = await dir({ unsafeCleanup: true, prefix: 'statecraft-end' });
});
afterEach(async () => {
  await scratch.cleanup();
});

const reasonOf = (signal: AbortSignal): string => (signal.reason as Error).message;

describe('the end of an attempt', () => {
  it("is bounded by the attempt's deadline held within 10-60 s", () => {
    expect([1_000, 10_000, 30_000, 60_000, 1_800_000].map(endOfAttemptBoundMs)).toEqual([10_000, 10_000, 30_000, 60_000, 60_000]);
  });

  it('an interrupt that came before the end stops it once the answer is not cancelled, though the end had started', () => {
    const interrupt = new AbortController();
    const end = endOfAttempt(60_000, interrupt.signal);
    interrupt.abort();
    const { signal } = end.git();
    expect(signal.aborted).toBe(false);
    end.settle({ outcome: 'completed', survivors: 0 });
    expect(signal.aborted).toBe(true);
    expect(reasonOf(signal)).toBe('the operator interrupted the end of the attempt');
  });

  it('an interrupt that ended the attempt (cancelled) leaves its end to the bound alone; one during the end stops it', () => {
    const interrupt = new AbortController();
    const end = endOfAttempt(60_000, interrupt.signal);
    interrupt.abort();
    const { signal } = end.git();
    end.settle({ outcome: 'cancelled', survivors: 0 });
    expect(signal.aborted).toBe(false);

    const later = new AbortController();
    const other = endOfAttempt(60_000, later.signal);
    const git = other.git();
    other.settle({ outcome: 'completed', survivors: 0 });
    expect(git.signal.aborted).toBe(false);
    later.abort();
    expect(reasonOf(git.signal)).toBe('the operator interrupted the end of the attempt');
  });

  it('a stopped git leaves its index lock until the answer says no process of the attempt survived, and keeps it if one did', async () => {
    const survived = join(scratch.path, 'survived');
    const clean = join(scratch.path, 'clean');
    for (const directory of [survived, clean]) {
      await mkdir(directory);
      await writeFile(join(directory, 'index.lock'), 'held');
    }
    const withSurvivor = endOfAttempt(60_000, undefined);
    await withSurvivor.git().stopped(survived);
    withSurvivor.settle({ outcome: 'completed', survivors: 1 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await readFile(join(survived, 'index.lock'), 'utf8')).toBe('held');

    const without = endOfAttempt(60_000, undefined);
    const stopping = without.git().stopped(clean);
    expect(await readFile(join(clean, 'index.lock'), 'utf8'), 'not before the answer').toBe('held');
    await stopping;
    without.settle({ outcome: 'completed', survivors: 0 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(readFile(join(clean, 'index.lock'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
