import { describe, expect, it } from 'vitest';
import { ELEMENTS_PER_PART, jsonInParts, partBytes, partText } from '../src/json-in-parts.js';

// The one stringify, its U+2028 (which a terminal would break the line at) written as an escape.
const oneStringify = (value: unknown) => `${JSON.stringify(value, null, 2).replaceAll('\u2028', '\\u2028')}\n`;
const joined = (value: unknown) => [...jsonInParts(value)].join('');

const summary = (index: number) => ({
  runId: `20261130T000000Z-${index.toString(16).padStart(6, '0')}`,
  attempt: 1 + (index % 3),
  state: 'concluded',
  cost: index % 2 === 0 ? 'unknown' : 0.0125 * index,
  timedOut: false,
  adapter: 'fixture 1.0.0 "quoted" \u00e9\u2028',
  nested: { list: [index, null, [], {}], empty: {} },
});

describe('a --json document written in parts is the bytes of the one stringify (R11)', () => {
  it('a list of two and a half parts of summaries between other fields is written in parts whose bytes are exactly the one stringify', () => {
    const value = {
      target: '/repo',
      chain: '/home/chain.jsonl',
      tornTail: { offset: 3, bytes: 2, sha256: 'ab' },
      attempts: Array.from({ length: 2.5 * ELEMENTS_PER_PART }, (_, index) => summary(index)),
      after: 'end',
    };
    const parts = [...jsonInParts(value)];
    expect(parts.length).toBeGreaterThan(3);
    expect(parts.join('')).toBe(oneStringify(value));
    expect(JSON.parse(parts.join(''))).toEqual(value);
  });

  it('long lists of a part and one element and of two parts around a short one, and one of exactly a part, are written as the one stringify writes them', () => {
    const value = {
      first: Array.from({ length: ELEMENTS_PER_PART + 1 }, (_, index) => index),
      middle: [1, 2],
      second: Array.from({ length: ELEMENTS_PER_PART }, (_, index) => summary(index)),
      last: Array.from({ length: 2 * ELEMENTS_PER_PART }, () => 'x'),
    };
    expect(joined(value)).toBe(oneStringify(value));
  });

  it('short lists, an empty list, values that are not plain objects, and a value with toJSON are one piece, as before', () => {
    for (const value of [
      { attempts: [] },
      { attempts: [summary(1)] },
      [summary(1), summary(2)],
      'text',
      3,
      null,
      new Date(0),
      { toJSON: () => ({ attempts: Array.from({ length: 1.5 * ELEMENTS_PER_PART }, (_, index) => index) }) },
    ]) {
      const parts = [...jsonInParts(value)];
      expect(parts).toEqual([oneStringify(value)]);
    }
  });
});

describe('a part rendered ahead as bytes', () => {
  it('is the UTF-8 of partText, whatever its characters: plain ASCII, DEL, C1 controls, separators, bidi marks, other text', () => {
    for (const adapter of ['fixture 1.0.0', 'a\u007fb', 'c\u0085d', 'e\u2028f', 'g\u202eh', 'caf\u00e9 \u4e2d', '"\\\u0001']) {
      const elements = Array.from({ length: 3 }, (_, index) => ({ ...summary(index), adapter }));
      expect(partBytes(elements).equals(Buffer.from(partText(elements))), adapter).toBe(true);
    }
  });
});
