import { describe, expect, it } from 'vitest';
import { startAttemptSummaries } from '@statecraft/records';
import { AttemptPartsAhead } from '../src/commands/attempt-parts-ahead.js';
import { ELEMENTS_PER_PART, jsonInParts } from '../src/json-in-parts.js';

type Entry = Parameters<ReturnType<typeof startAttemptSummaries>['add']>[0];

/** Attempts counted in parts: `part(1.5)` is the middle attempt of part 1. */
const part = (parts: number) => Math.round(parts * ELEMENTS_PER_PART);
const runIdOf = (index: number) => `20261130T000000Z-${index.toString(16).padStart(6, '0')}`;

const digest = (name: string) => name.padStart(64, '0');
const intent = (index: number): Entry =>
  ({
    record: {
      kind: 'intent',
      runId: runIdOf(index),
      attempt: 1,
      at: '2026-12-01T00:00:00.000Z',
      adapter: { name: 'fixture', version: '1.0.0' },
      qualification: 'unqualified',
    },
    digest: digest(`a${index}`),
  }) as unknown as Entry;
const outcome = (index: number, name: string, result: 'completed' | 'refused'): Entry =>
  ({
    record: { kind: 'outcome', intent: digest(`a${index}`), outcome: result, cause: 'none', refusalCount: 0, cost: 0.5, timedOut: false },
    digest: digest(name),
  }) as unknown as Entry;
const acceptance = (outcomeName: string, verdict: string): Entry =>
  ({ record: { kind: 'acceptance', outcome: digest(outcomeName), verdict, reason: 'suite-failed' }, digest: digest(`v${outcomeName}`) }) as unknown as Entry;

/**
 * Three and a half parts of attempts (parts 0–3), each concluded right after its intent, then
 * records after part 0 was rendered: a second outcome for attempt 7 (which changes nothing: an
 * attempt's first outcome is its own), a failed acceptance of attempt 2 (which changes part 0) and
 * an acceptance in part 1, whose middle attempt has no outcome: part 1 is never rendered ahead,
 * part 2 is and stays so, part 3 is not whole.
 */
function entries(): Entry[] {
  const list: Entry[] = [];
  for (let index = 0; index < part(3.5); index += 1) {
    list.push(intent(index));
    if (index !== part(1.5)) list.push(outcome(index, `o${index}`, index % 2 === 0 ? 'completed' : 'refused'));
  }
  list.push(outcome(7, 'o7-again', 'completed'), acceptance('o2', 'failed'), acceptance(`o${part(1.1)}`, 'passed'));
  return list;
}

const printed = (value: unknown) => [...jsonInParts(value)].join('');

describe("run list's attempts rendered while the chain is read print the bytes the final summaries give (R11)", () => {
  it('parts changed after they were rendered, and a part with an attempt that has no outcome, print as the final values do', () => {
    const ahead = new AttemptPartsAhead();
    const plain = startAttemptSummaries();
    for (const entry of entries()) {
      ahead.summaries.add(entry);
      ahead.afterEntry();
      plain.add(entry);
    }
    const live = { runId: runIdOf(part(1.5)), attempt: 1 };
    const value = { target: '/repo', attempts: ahead.finish(live) };
    const expected = { target: '/repo', attempts: plain.finish(live) };
    expect(value).toEqual(expected);
    expect(value.attempts[7]!.outcome).toBe('refused');
    expect(value.attempts[2]!.outcome).toBe('failed');
    expect(value.attempts[part(1.5)]!.state).toBe('running');
    expect(printed(value)).toBe(`${JSON.stringify(expected, null, 2)}\n`);
  });

  it('a part rendered ahead is what is printed: text rendered ahead stands in for the part (so a stale one would show)', () => {
    const ahead = new AttemptPartsAhead();
    for (const entry of entries()) {
      ahead.summaries.add(entry);
      ahead.afterEntry();
    }
    const attempts = ahead.finish('none');
    // Changed behind the fold's back after rendering: the printed part keeps the rendered text.
    attempts[part(2)]!.cost = 99;
    expect(printed({ attempts })).not.toContain('"cost": 99');
    // Part 0 was dropped (attempt 2 changed after it was rendered): it is rendered when printed.
    attempts[3]!.cost = 98;
    expect(printed({ attempts })).toContain('"cost": 98');
  });
});
