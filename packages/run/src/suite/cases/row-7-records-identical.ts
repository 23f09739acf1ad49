import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import { replayAdapterPath } from '@statecraft/adapter';
import type { AttemptResult } from '@statecraft/adapter';
import type { SuiteContext } from '../suite-context.js';
import { Findings, notRun, resultOf, type CaseVerdict } from './verdict.js';

/**
 * What may differ between two implementations' records of the same behaviour: who they are
 * (identity and digest), when they ran (timing) and what they said on stderr (diagnostics, never
 * parsed for meaning). Everything else — outcome, cause, refusals, claim, cost, turns, stream
 * digest, capabilities, exit — must be equal.
 */
const IMPLEMENTATION_FIELDS = ['adapter', 'startedAt', 'endedAt', 'durationMs', 'stderr'] as const;

type Comparable = Omit<AttemptResult, (typeof IMPLEMENTATION_FIELDS)[number]>;

export function comparableResult(result: AttemptResult): Comparable {
  const copy: Partial<AttemptResult> = { ...result };
  for (const field of IMPLEMENTATION_FIELDS) delete copy[field];
  return copy as Comparable;
}

/**
 * Row 7 (R1.2, R1.4): records emitted through the seam are identical whichever implementation
 * produced them. The live adapter's own raw stream is replayed through a real child (the replay
 * adapter) for the same request and manifest; the two results, read by the same supervisor and
 * classifier, must be equal except for implementation fields.
 */
export async function checkRecordsIdentical(context: SuiteContext): Promise<CaseVerdict> {
  const provocation = context.provocationFor('refuse');
  if (provocation === 'not-applicable') return notRun('the driver cannot provoke a refusal to replay');
  const live = await context.provoke(provocation);
  const liveRan = resultOf(live);
  if ('verdict' in liveRan) return liveRan.verdict;
  if (live.answer.kind !== 'ran') return notRun('unreachable: a result without a run');
  const liveExit = liveRan.result.exit;
  const replayed = await context.provoke(
    {
      ...provocation,
      evidence: 'replayed',
      environment: {
        ...provocation.environment,
        STATECRAFT_REPLAY_FILE: live.answer.files.stream,
        // The replay ends the way the live process did, so the exit evidence is comparable too.
        ...(liveExit !== 'not-observed' && liveExit.code !== null ? { STATECRAFT_REPLAY_EXIT_CODE: String(liveExit.code) } : {}),
      },
    },
    { executable: replayAdapterPath(), manifestPath: context.manifestPath, attemptDir: join(context.scratchDir, 'row-7-replay') },
  );
  const replayRan = resultOf(replayed);
  if ('verdict' in replayRan) return replayRan.verdict;
  const left = comparableResult(liveRan.result);
  const right = comparableResult(replayRan.result);
  const findings = new Findings();
  const differing = (Object.keys(left) as (keyof Comparable)[]).filter((key) => !isDeepStrictEqual(left[key], right[key]));
  findings.expect(
    differing.length === 0,
    `the live and replayed records differ in ${differing.map((key) => `${key} (live ${JSON.stringify(left[key])}, replayed ${JSON.stringify(right[key])})`).join(', ')}`,
  );
  findings.expect(liveRan.result.adapter.digest !== replayRan.result.adapter.digest, 'the replay ran the same executable, so nothing was compared');
  findings.observe(
    `live (${liveRan.result.outcome}, ${liveRan.result.refusalCount} refusal(s)) and its stream replayed through a real child give equal records except ${IMPLEMENTATION_FIELDS.join(', ')}`,
  );
  return findings.verdict('replayed');
}
