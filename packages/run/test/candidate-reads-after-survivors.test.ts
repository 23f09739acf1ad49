import { describe, expect, it } from 'vitest';
import { readsThatStand, type PreparedAttempt } from '../src/launch/conclude-attempt.js';
import type { FirstCandidateReads } from '../src/workspace/identify-candidate.js';
import type { WorkspaceGitAnswer } from '../src/workspace/workspace-git-from-outside.js';

/** A read that settles only when told to, so the test sees what waits for it. */
function pendingRead(): { read: Promise<WorkspaceGitAnswer>; settle: () => void } {
  let settle: () => void = () => undefined;
  const read = new Promise<WorkspaceGitAnswer>((resolve) => {
    settle = () => resolve({ ok: true, stdout: '' });
  });
  return { read, settle };
}

function attemptWith(reads: FirstCandidateReads): PreparedAttempt {
  return { firstReads: Promise.resolve(reads) } as unknown as PreparedAttempt;
}

describe('candidate reads started as bwrap ended (R13.2, R7.3)', () => {
  it('stand when the sweep found no process of the attempt', () => {
    const status = pendingRead();
    const ids = pendingRead();
    const attempt = attemptWith({ status: status.read, ids: ids.read });
    expect(readsThatStand(attempt, 0)).toBe(attempt);
  });

  it('are dropped when the sweep found a survivor, and only once both have finished: the reads start again over the tree as left', async () => {
    const status = pendingRead();
    const ids = pendingRead();
    const dropped = readsThatStand(attemptWith({ status: status.read, ids: ids.read }), 1).firstReads;
    let answered = false;
    void dropped?.then(() => {
      answered = true;
    });
    status.settle();
    await new Promise((resolve) => setImmediate(resolve));
    // The ids' git may still hold the index (a status refreshes it): nothing new starts yet.
    expect(answered).toBe(false);
    ids.settle();
    expect(await dropped).toBeUndefined();
    expect(answered).toBe(true);
  });
});
