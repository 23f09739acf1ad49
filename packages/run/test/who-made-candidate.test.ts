import { describe, expect, it } from 'vitest';
import { whoMadeCandidate } from '../src/workspace/who-made-candidate.js';

// Who made a candidate (R13.2), told from the workspace as the attempt found it. End to end, the
// cases an attempt can reach under the fixture are in test/e2e/run/run-retry-candidate.test.ts; the ones
// only an agent outside the boundary can reach (HEAD moved back to an earlier commit) are here.

const BASE = 'b'.repeat(40);
const FIRST = '1'.repeat(40);
const NEW = 'e'.repeat(40);
const START_AT_FIRST = { commit: FIRST, tree: 'f'.repeat(40), uncommitted: false, is: { candidateOf: 1 } } as const;
const earlier = [{ commit: FIRST, attempt: 1 }];

describe('who made a candidate, told from the attempt start and never from a commit author', () => {
  it('a tree left dirty is committed by statecraft, whatever HEAD did', () => {
    expect(whoMadeCandidate({ dirty: true, commit: NEW, baseCommit: BASE, start: START_AT_FIRST, earlier })).toEqual({
      madeBy: 'statecraft',
      earlier: 'not-applicable',
    });
  });

  it('a clean tree still at the start is earlier, named as the start is: here attempt 1 candidate', () => {
    expect(whoMadeCandidate({ dirty: false, commit: FIRST, baseCommit: BASE, start: START_AT_FIRST, earlier })).toEqual({
      madeBy: 'earlier',
      earlier: { candidateOf: 1 },
    });
  });

  it('HEAD moved back to the base or to an earlier candidate is earlier, not made by agent', () => {
    const startAtNew = { ...START_AT_FIRST, commit: NEW, is: 'other' as const };
    expect(whoMadeCandidate({ dirty: false, commit: BASE, baseCommit: BASE, start: startAtNew, earlier })).toEqual({ madeBy: 'earlier', earlier: 'base' });
    expect(whoMadeCandidate({ dirty: false, commit: FIRST, baseCommit: BASE, start: startAtNew, earlier })).toEqual({
      madeBy: 'earlier',
      earlier: { candidateOf: 1 },
    });
  });

  it('HEAD moved to any other commit is made by agent', () => {
    expect(whoMadeCandidate({ dirty: false, commit: NEW, baseCommit: BASE, start: START_AT_FIRST, earlier })).toEqual({
      madeBy: 'agent',
      earlier: 'not-applicable',
    });
  });
});
