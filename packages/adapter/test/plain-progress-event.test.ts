import { describe, expect, it } from 'vitest';
import { EventSchema } from '@statecraft/adapter';
import { parseEventLine, plainProgressEvent } from '../src/stream/parse-event-line.js';

// The reader reads a plain progress event without the schema (parse-event-line.ts). It must decide
// nothing the schema would decide otherwise: every line below is read both ways, and gives the same
// verdict, the same event (fields, order, -0) or the same reason.

const progress = { type: 'progress', protocol: 1, seq: 7, kind: 'message', tools: ['shell'], detail: { text: 'hi' } };
const variants: Record<string, unknown> = {
  plain: progress,
  'no tools': { ...progress, tools: [] },
  'detail null': { ...progress, detail: null },
  'detail a string': { ...progress, detail: 'x' },
  'detail an array': { ...progress, detail: [1, { a: [] }] },
  'fields in another order': { detail: 1, tools: [], kind: 'k', seq: 0, protocol: 1, type: 'progress' },
  'seq -0': { ...progress, seq: -0 },
  'seq the largest safe integer': { ...progress, seq: Number.MAX_SAFE_INTEGER },
  'seq past the safe integers': { ...progress, seq: 2 ** 53 },
  'seq a fraction': { ...progress, seq: 1.5 },
  'seq negative': { ...progress, seq: -1 },
  'seq a string': { ...progress, seq: '7' },
  'seq null': { ...progress, seq: null },
  'protocol 2': { ...progress, protocol: 2 },
  'protocol a string': { ...progress, protocol: '1' },
  'kind empty': { ...progress, kind: '' },
  'kind a number': { ...progress, kind: 1 },
  'tools not an array': { ...progress, tools: 'shell' },
  'tools holding a number': { ...progress, tools: ['shell', 1] },
  'tools holding null': { ...progress, tools: [null] },
  'an unknown key': { ...progress, extra: true },
  'detail missing': { type: 'progress', protocol: 1, seq: 7, kind: 'message', tools: [] },
  'tools missing': { type: 'progress', protocol: 1, seq: 7, kind: 'message', detail: {} },
  'type missing': { protocol: 1, seq: 7, kind: 'message', tools: [], detail: {} },
  'another type with the same fields': { ...progress, type: 'refusal' },
  refusal: { type: 'refusal', protocol: 1, seq: 3, tool: 'Bash', verbatim: { command: 'git push' } },
  result: { type: 'result', protocol: 1, seq: 3, terminal: 'completed', claim: { status: 'success', isError: false, reason: 'r', detail: {} }, turns: 1 },
  'an array': [progress],
  null: null,
  'a number': 1,
};
/** Lines only JSON text can spell: a key given twice, `__proto__` as a key of its own. */
const texts: Record<string, string> = {
  ...Object.fromEntries(Object.entries(variants).map(([name, value]) => [name, JSON.stringify(value)])),
  'seq given twice, the last one bad': '{"type":"progress","protocol":1,"seq":7,"kind":"m","tools":[],"detail":{},"seq":-1}',
  'seq given twice, the last one good': '{"type":"progress","protocol":1,"seq":-1,"kind":"m","tools":[],"detail":{},"seq":7}',
  'type given twice': '{"type":"refusal","protocol":1,"seq":7,"kind":"m","tools":[],"detail":{},"type":"progress"}',
  '__proto__ as a seventh key': '{"type":"progress","protocol":1,"seq":7,"kind":"m","tools":[],"detail":{},"__proto__":{"x":1}}',
  '__proto__ in place of detail': '{"type":"progress","protocol":1,"seq":7,"kind":"m","tools":[],"__proto__":{}}',
  'a nested __proto__': '{"type":"progress","protocol":1,"seq":7,"kind":"m","tools":[],"detail":{"__proto__":{"polluted":true}}}',
  'seq in exponent form': '{"type":"progress","protocol":1,"seq":7e0,"kind":"m","tools":[],"detail":{}}',
  'seq 1e400': '{"type":"progress","protocol":1,"seq":1e400,"kind":"m","tools":[],"detail":{}}',
  'kind holding an escaped NUL': '{"type":"progress","protocol":1,"seq":7,"kind":"\\u0000","tools":["\\ud800"],"detail":{}}',
};

/** The schema's reading of a line: what parseEventLine gave before the plain path existed. */
function bySchema(text: string): unknown {
  const parsed = EventSchema.safeParse(JSON.parse(text));
  return parsed.success ? { kind: 'event', event: parsed.data } : { kind: 'malformed', schema: true };
}

const split = (text: string) => {
  const bytes = Buffer.from(text);
  return { bytes, lineBytes: bytes.length, oversize: false };
};

describe('a plain progress event is read as the schema reads it', () => {
  it.each(Object.entries(texts))('%s', (_name, text) => {
    const json: unknown = JSON.parse(text);
    const plain = plainProgressEvent(json);
    const schema = EventSchema.safeParse(json);
    if (plain !== undefined) {
      // Accepted without the schema only where the schema accepts it, as the same value.
      expect(schema.success).toBe(true);
      expect(plain).toStrictEqual(schema.data);
      expect(Object.keys(plain)).toEqual(Object.keys(schema.data ?? {}));
      expect(JSON.stringify(plain)).toBe(JSON.stringify(schema.data));
      expect(Object.is(plain.seq, schema.data?.seq)).toBe(true);
    }
    // The reader's verdict on the whole line is the schema's, whichever path read it.
    const read = parseEventLine(split(text), 1, 1 << 20);
    const expected = bySchema(text);
    if (read.kind === 'event') expect(expected).toStrictEqual({ kind: 'event', event: read.event });
    else expect({ kind: read.kind, schema: true }).toStrictEqual(expected);
  });

  it('takes the plain path for the progress events a stream is mostly made of, and leaves every other kind to the schema', () => {
    expect(plainProgressEvent(progress)).toBeDefined();
    expect(plainProgressEvent(variants['fields in another order'])).toBeDefined();
    for (const name of ['an unknown key', 'detail missing', 'seq a fraction', 'refusal', 'result', 'tools holding a number'])
      expect(plainProgressEvent(variants[name]), name).toBeUndefined();
  });
});
