import { describe, expect, it } from 'vitest';
import { ChainSummarySchema, quickSummaryCheck } from '@statecraft/records';

const quick = quickSummaryCheck(ChainSummarySchema);
const digest = 'c'.repeat(64);
const intent = {
  prev: 'genesis',
  seq: 0,
  format: 1,
  kind: 'intent',
  at: '2026-11-30T04:00:00.000Z',
  runId: '20261130T040000Z-abcdef',
  attempt: 1,
  adapter: { name: 'fixture', version: '1.0.0' },
  qualification: 'unqualified',
};
const outcome = {
  prev: digest,
  seq: 1,
  format: 1,
  kind: 'outcome',
  at: '2026-11-30T04:00:01.000Z',
  runId: '20261130T040000Z-abcdef',
  attempt: 1,
  intent: digest,
  outcome: 'completed',
  cause: 'none',
  refusalCount: 0,
  cost: 0.25,
  timedOut: false,
};

/** Values of every JSON type, in and out of each field's range. */
const CANDIDATES: unknown[] = [
  undefined,
  null,
  true,
  false,
  0,
  -0,
  1,
  2,
  -1,
  1.5,
  2 ** 53,
  Number.MAX_VALUE,
  '',
  'x',
  'genesis',
  'unknown',
  digest,
  'C'.repeat(64),
  'c'.repeat(63),
  '2026-11-30T04:00:00.000Z',
  '2026-02-30T04:00:00.000Z',
  '2026-11-30T24:00:00.000Z',
  '2026-11-30T04:00:00Z',
  '2026-11-30T04:00:00.000+01:00',
  '20261130T040000Z-abcdef',
  'completed',
  'refused',
  'none',
  'deadline',
  'qualified',
  'unqualified',
  'intent',
  'outcome',
  {},
  [],
  { name: 'a', version: '1' },
  { name: '', version: '1' },
  { name: 'a', version: '1', extra: 1 },
  { name: 'a' },
  ['a', '1'],
];

describe('the quick summary check accepts only what the summary schema accepts (R8.4)', () => {
  it('accepts the summaries run writes, of both kinds, without the schema', () => {
    expect(quick(intent)).toBe(true);
    expect(quick(outcome)).toBe(true);
    expect(ChainSummarySchema.safeParse(intent).success && ChainSummarySchema.safeParse(outcome).success).toBe(true);
  });

  it('whatever value any field takes, or an extra or missing field, what it accepts the schema accepts too', () => {
    let tried = 0;
    for (const record of [intent, outcome] as Record<string, unknown>[]) {
      const variants: Record<string, unknown>[] = [
        { ...record, extra: 1 },
        { ...record, kind: record.kind === 'intent' ? 'outcome' : 'intent' },
      ];
      for (const key of Object.keys(record)) {
        for (const value of CANDIDATES) {
          const variant: Record<string, unknown> = { ...record };
          if (value === undefined) delete variant[key];
          else variant[key] = value;
          variants.push(variant);
        }
      }
      for (const variant of variants) {
        tried += 1;
        if (quick(variant)) expect({ variant, schema: ChainSummarySchema.safeParse(variant).success }).toEqual({ variant, schema: true });
      }
    }
    expect(tried).toBeGreaterThan(800);
  });
});
