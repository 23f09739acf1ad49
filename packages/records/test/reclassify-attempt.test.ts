import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dir, type DirectoryResult } from 'tmp-promise';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resultReadFromStream, type AttemptResult, type StreamReading } from '@statecraft/adapter';
import { reclassifyAttempt, rereadKeptStream } from '@statecraft/records';

const line = (event: Record<string, unknown>): string => JSON.stringify({ protocol: 1, ...event });
const init = line({
  seq: 0,
  type: 'init',
  adapter: { name: 'test', version: '0.0.0' },
  provider: 'none',
  requested: { capabilities: [] },
  applied: { capabilities: [], tools: 'not-recorded', allowlist: 'not-recorded' },
  detail: {},
});
const progress = line({ seq: 1, type: 'progress', kind: 'message', tools: [], detail: {} });
const result = line({
  seq: 2,
  type: 'result',
  terminal: 'completed',
  claim: { status: 'success', isError: false, reason: 'not-recorded', detail: {} },
  cost: 'unknown',
  turns: 1,
});

/**
 * The fields of a recorded result the re-classification reads, beside what a faithful supervisor read
 * from the same stream (the refusals' excerpt, the claim, the provider …); the rest plays no part.
 */
function recorded(
  fields: Pick<AttemptResult, 'outcome' | 'cause' | 'timedOut'> & { events: number; progress: number; survivors?: AttemptResult['survivors'] },
  reading: StreamReading,
): AttemptResult {
  const { appliedCapabilities, ...read } = resultReadFromStream(reading);
  // Through JSON, as the chain holds a result: what the comparison reads is what a record can be.
  return JSON.parse(
    JSON.stringify({
      ...read,
      capabilities: { applied: appliedCapabilities },
      outcome: fields.outcome,
      cause: fields.cause,
      refusalCount: 0,
      // sha256 of nothing: no refusal line was read.
      refusalDigest: { sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', bytes: 0 },
      timedOut: fields.timedOut,
      events: { count: fields.events, progress: fields.progress, toolUses: 0, linesAfterTerminal: 0 },
      exit: 'not-observed',
      containment: { mechanism: 'process-group', blindSpots: [] },
      survivors: fields.survivors ?? [],
      startedAt: '2026-11-30T00:00:00.000Z',
      endedAt: '2026-11-30T00:00:01.000Z',
      durationMs: 1000,
      stdout: { bytes: 0, sha256: '0'.repeat(64) },
      stderr: { bytes: 0, sha256: '0'.repeat(64) },
    }),
  ) as AttemptResult;
}

let scratch: DirectoryResult;
let directory: string;
beforeEach(async () => {
  scratch = await dir({ unsafeCleanup: true, prefix: 'statecraft-reclassify' });
  directory = scratch.path;
});
afterEach(async () => {
  await scratch.cleanup();
});

async function reread(text: string, endOfStream: boolean) {
  const path = join(directory, 'stream.ndjson');
  await writeFile(path, text);
  const kept = rereadKeptStream(path, { endOfStream });
  if (kept.kind !== 'read') throw new Error(kept.message);
  return kept;
}

describe("classifying an attempt again from its kept stream with the supervisor's own reader and classifier (R8.2)", () => {
  it('after a deadline the stream is read only as far as the supervisor read it: an unfinished last line is no event (R7.2)', async () => {
    // The adapter had written a result without its newline when the deadline fired.
    const kept = await reread(`${init}\n${progress}\n${result}`, false);
    expect(kept.reading.terminal).toBe('not-recorded');
    expect(kept.reading.streamDiagnostic).toBe('none');
    expect(
      reclassifyAttempt(recorded({ outcome: 'interrupted', cause: 'deadline', timedOut: true, events: 2, progress: 1 }, kept.reading), kept.reading),
    ).toEqual({
      state: 'agrees',
    });
  });

  it('read to its end, a stream with no terminal event is interrupted (no result), whatever the record says', async () => {
    const kept = await reread(`${init}\n${progress}\n`, true);
    const check = reclassifyAttempt(recorded({ outcome: 'completed', cause: 'none', timedOut: false, events: 2, progress: 1 }, kept.reading), kept.reading);
    expect(check).toMatchObject({ state: 'disagrees', recorded: { outcome: 'completed' }, fromStream: { outcome: 'interrupted', cause: 'stream-no-result' } });
  });

  it("the operator's interrupt is a fact of supervision taken from the record; it never makes a stream without a result completed (R8.1)", async () => {
    const kept = await reread(`${init}\n${progress}\n`, true);
    expect(
      reclassifyAttempt(recorded({ outcome: 'cancelled', cause: 'operator-cancel', timedOut: false, events: 2, progress: 1 }, kept.reading), kept.reading),
    ).toEqual({
      state: 'agrees',
    });
  });

  it('survivors are a fact of supervision taken from the record: a completed stream with one left is interrupted (processes-left) (R7.3)', async () => {
    const kept = await reread(`${init}\n${progress}\n${result}\n`, true);
    const survivors = [{ pid: 4242, command: 'sleep 304' }];
    expect(
      reclassifyAttempt(
        recorded({ outcome: 'interrupted', cause: 'processes-left', timedOut: false, events: 3, progress: 1, survivors }, kept.reading),
        kept.reading,
      ),
    ).toEqual({ state: 'agrees' });
    expect(
      reclassifyAttempt(recorded({ outcome: 'completed', cause: 'none', timedOut: false, events: 3, progress: 1, survivors }, kept.reading), kept.reading),
    ).toMatchObject({
      state: 'disagrees',
      fromStream: { outcome: 'interrupted', cause: 'processes-left' },
    });
  });

  it('counts are compared too: a record that leaves out events the stream carries disagrees', async () => {
    const kept = await reread(`${init}\n${progress}\n${result}\n`, true);
    expect(reclassifyAttempt(recorded({ outcome: 'completed', cause: 'none', timedOut: false, events: 3, progress: 1 }, kept.reading), kept.reading)).toEqual({
      state: 'agrees',
    });
    expect(
      reclassifyAttempt(recorded({ outcome: 'completed', cause: 'none', timedOut: false, events: 2, progress: 0 }, kept.reading), kept.reading),
    ).toMatchObject({
      state: 'disagrees',
    });
  });

  it('every other field the stream alone gives is compared: a refusal excerpt, claim or provider rewritten in the record (and its result file) disagrees, naming the field', async () => {
    const kept = await reread(`${init}\n${progress}\n${result}\n`, true);
    const faithful = recorded({ outcome: 'completed', cause: 'none', timedOut: false, events: 3, progress: 1 }, kept.reading);
    expect(reclassifyAttempt(faithful, kept.reading)).toEqual({ state: 'agrees' });
    const claim = { status: 'success', isError: false, reason: 'all tests pass', detail: {} };
    const check = reclassifyAttempt({ ...faithful, providerClaim: claim, turns: 7 }, kept.reading);
    expect(check).toMatchObject({ state: 'disagrees', recorded: { outcome: 'completed' }, fromStream: { outcome: 'completed' } });
    expect(check.state === 'disagrees' ? check.fields.map((field) => field.field) : []).toEqual(['result.providerClaim.reason', 'result.turns']);
    const applied = reclassifyAttempt({ ...faithful, capabilities: { applied: ['turn-limit'] } } as unknown as AttemptResult, kept.reading);
    expect(applied.state === 'disagrees' ? applied.fields : []).toEqual([
      { field: 'result.capabilities.applied', recorded: { value: ['turn-limit'] }, keptField: 'init.applied.capabilities', kept: { value: [] } },
    ]);
  });

  it('a stream whose numbers JSON cannot keep (-0, past a double) agrees with the record it gave: the stream is compared as a record could hold it', async () => {
    const odd = line({
      seq: 2,
      type: 'result',
      terminal: 'completed',
      claim: { status: 'success', isError: false, reason: 'not-recorded', detail: { big: null } },
      cost: { usd: 0 },
      turns: 0,
    })
      .replace('"big":null', '"big":1e999')
      .replace('"usd":0', '"usd":-0')
      .replace('"turns":0', '"turns":-0');
    const kept = await reread(`${init}\n${progress}\n${odd}\n`, true);
    expect(kept.reading.terminal).toMatchObject({ turns: -0 });
    const faithful = recorded({ outcome: 'completed', cause: 'none', timedOut: false, events: 3, progress: 1 }, kept.reading);
    expect(faithful.turns).toBe(0);
    expect(reclassifyAttempt(faithful, kept.reading)).toEqual({ state: 'agrees' });
  });

  it("a refusal's text rewritten in a record whose refusal digest was removed still disagrees: removing it turns no comparison off", async () => {
    const refusal = line({ seq: 1, type: 'refusal', tool: 'Bash', verbatim: { tool: 'Bash', input: { command: 'git push --force' } } });
    const kept = await reread(`${init}\n${refusal}\n${result}\n`, true);
    const faithful = {
      ...recorded({ outcome: 'refused', cause: 'none', timedOut: false, events: 3, progress: 0 }, kept.reading),
      refusalCount: kept.reading.refusals.count,
      refusalDigest: kept.reading.refusals.digest,
    };
    expect(reclassifyAttempt(faithful, kept.reading)).toEqual({ state: 'agrees' });
    const [first] = faithful.refusals as { verbatim: { input: { command: string } } }[];
    if (first === undefined) throw new Error('the stream gave no refusal');
    first.verbatim.input.command = 'git status';
    const downgraded = { ...faithful, refusalDigest: 'not-recorded' } as unknown as AttemptResult;
    const check = reclassifyAttempt(downgraded, kept.reading);
    expect(check.state === 'disagrees' ? check.fields.map((field) => field.field) : []).toEqual(['result.refusals.0.verbatim.input.command']);
    // Nor does it let a refusal be added past the stream's: such a record held every one, as many as its count.
    const added = { ...faithful, refusalDigest: 'not-recorded', refusals: [...faithful.refusals, ...faithful.refusals] } as unknown as AttemptResult;
    const longer = reclassifyAttempt(added, kept.reading);
    expect(longer.state === 'disagrees' ? longer.fields.map((field) => field.field) : []).toEqual([
      'result.refusals.length',
      'result.refusals.0.verbatim.input.command',
    ]);
  });
});
