import { describe, expect, it } from 'vitest';
import { findAttemptProcesses } from '@statecraft/adapter';
import { superviseAdapter } from '@statecraft/run';
import { baseEnvironment, fixture, freshDirectory, freshTag, isAlive } from './supervise-helpers.js';

// /dev/full answers every write with ENOSPC: a full disk, for real, with nothing to mount.
describe('superviseAdapter, when its evidence cannot be written', () => {
  it('stops the attempt at once, long before its deadline, kills its tree and names the file (R8.4, R7.3)', async () => {
    const tag = freshTag();
    const started = performance.now();
    const answer = await superviseAdapter({
      executable: fixture('hang-with-descendant.mjs'),
      args: [],
      workspace: freshDirectory(),
      environment: baseEnvironment,
      prompt: 'a prompt',
      deadlineMs: 120_000,
      attemptTag: tag,
      streamFile: '/dev/full',
    });
    expect(performance.now() - started).toBeLessThan(20_000);
    if (answer.kind !== 'evidence-not-kept') throw new Error(`expected evidence-not-kept, got ${answer.kind}`);
    expect(answer.stopped).toBe(true);
    expect(answer.notKept).toEqual([{ path: '/dev/full', message: expect.stringContaining('could not write /dev/full (ENOSPC') as string }]);
    // What was read before the stop is kept in the observation, with the digest of the bytes read.
    expect(answer.attempt.timedOut).toBe(false);
    expect(answer.attempt.stdout.bytes).toBeGreaterThan(0);
    expect(answer.attempt.survivors).toEqual([]);
    expect(findAttemptProcesses(tag).filter(isAlive)).toEqual([]);
  });
});
