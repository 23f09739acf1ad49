import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { readEventStream, DEFAULT_MAX_LINE_BYTES, OVERSIZE_EVIDENCE_BYTES, REFUSAL_EXCERPT_COUNT, REFUSAL_EXCERPT_LINE_BYTES } from '@statecraft/adapter';
import type { ProtocolEvent } from '@statecraft/adapter';

// Real byte buffers, fed in chunks the way a pipe delivers them (R7.4, R7.5).

const init = (seq = 0) => ({
  type: 'init',
  protocol: 1,
  seq,
  adapter: { name: 'fixture', version: '1.0.0' },
  provider: 'none',
  requested: { capabilities: [] },
  applied: { capabilities: [], tools: 'not-recorded', allowlist: 'not-recorded' },
  detail: {},
});
const progress = (seq: number, tools: string[] = []) => ({ type: 'progress', protocol: 1, seq, kind: 'message', tools, detail: null });
const refusal = (seq: number) => ({ type: 'refusal', protocol: 1, seq, tool: 'shell', verbatim: { why: 'denied' } });
const result = (seq: number) => ({
  type: 'result',
  protocol: 1,
  seq,
  terminal: 'completed',
  claim: { status: 'success', isError: false, reason: 'not-recorded', detail: {} },
  cost: 'unknown',
  turns: 1,
});

const line = (value: unknown) => `${JSON.stringify(value)}\n`;

/** Lets the event loop turn between chunks, as a pipe does. */
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Delivers the bytes in chunks of `size`, so lines straddle chunk boundaries. */
async function* chunked(bytes: Buffer, size = 7): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) {
    if (at % (size * 64) === 0) await tick();
    yield bytes.subarray(at, at + size);
  }
}

const read = (text: string | Buffer, size?: number, maxLineBytes?: number) =>
  readEventStream(chunked(Buffer.isBuffer(text) ? text : Buffer.from(text), size), maxLineBytes === undefined ? {} : { maxLineBytes });

const complete = line(init()) + line(progress(1, ['shell', 'edit'])) + line(refusal(2)) + line(result(3));

describe('readEventStream', () => {
  it('reads a complete stream into init, refusals, terminal and counts with no diagnostic (R7.5)', async () => {
    const reading = await read(complete);
    expect(reading.streamDiagnostic).toBe('none');
    expect(reading.init).toMatchObject({ type: 'init', seq: 0 });
    expect(reading.refusals).toMatchObject({ count: 1, excerpt: [refusal(2)] });
    expect(reading.terminal).toMatchObject({ type: 'result', seq: 3 });
    expect(reading.events).toEqual({ count: 4, progress: 1, toolUses: 2, linesAfterTerminal: 0 });
  });

  it('gives the same reading whether the bytes arrive one at a time or all at once (R7.5)', async () => {
    const oneByOne = await read(complete, 1);
    const whole = await read(complete, 1 << 20);
    expect(oneByOne).toEqual(whole);
  });

  it('tolerates CRLF line endings (R7.5)', async () => {
    const reading = await read(complete.replaceAll('\n', '\r\n'), 3);
    expect(reading.streamDiagnostic).toBe('none');
    expect(reading.events.count).toBe(4);
  });

  it('reads a final line that has no newline (R7.5)', async () => {
    const reading = await read(complete.slice(0, -1));
    expect(reading.streamDiagnostic).toBe('none');
    expect(reading.terminal).toMatchObject({ type: 'result' });
  });

  it('calls onEvent for each event of the trusted prefix, in order, and for nothing after it (R7.4)', async () => {
    const seen: ProtocolEvent[] = [];
    await readEventStream(chunked(Buffer.from(complete + 'garbage\n')), { onEvent: (event) => seen.push(event) });
    expect(seen.map((event) => event.seq)).toEqual([0, 1, 2, 3]);
  });

  it('reports no-result when the stream ends without a terminal event (R7.5)', async () => {
    const reading = await read(line(init()) + line(progress(1)));
    expect(reading.streamDiagnostic).toEqual({ kind: 'no-result' });
    expect(reading.terminal).toBe('not-recorded');
    expect(reading.events.count).toBe(2);
  });

  it('reports no-result for an empty stream (R7.5)', async () => {
    expect((await read('')).streamDiagnostic).toEqual({ kind: 'no-result' });
  });

  it('keeps the events before a malformed line and the line itself verbatim (R7.5)', async () => {
    const reading = await read(line(init()) + line(progress(1)) + '{"type":"progress", not json\n' + line(result(2)));
    expect(reading.streamDiagnostic).toMatchObject({
      kind: 'malformed',
      lineNumber: 3,
      line: '{"type":"progress", not json',
      lineBytes: 28,
      lineBytesKept: 28,
    });
    expect(reading.events.count).toBe(2);
    expect(reading.terminal).toBe('not-recorded');
  });

  it('names the zod field when a line is JSON but not a protocol event (R7.5)', async () => {
    const bad = { ...progress(1), tools: 'shell' };
    const reading = await read(line(init()) + line(bad) + line(result(2)));
    expect(reading.streamDiagnostic).toMatchObject({ kind: 'malformed', lineNumber: 2 });
    const diagnostic = reading.streamDiagnostic as { reason: string };
    expect(diagnostic.reason).toContain('event stream line 2');
    expect(diagnostic.reason).toContain('"tools"');
  });

  it('treats an event of another protocol version as malformed, not guessed at (R1.5)', async () => {
    const reading = await read(line(init()) + line({ ...progress(1), protocol: 2 }) + line(result(2)));
    expect(reading.streamDiagnostic).toMatchObject({ kind: 'malformed', lineNumber: 2 });
    expect((reading.streamDiagnostic as { reason: string }).reason).toContain('"protocol"');
  });

  it('treats a blank line as malformed (R7.5)', async () => {
    const reading = await read(line(init()) + '\n' + line(result(1)));
    expect(reading.streamDiagnostic).toMatchObject({ kind: 'malformed', lineNumber: 2, line: '', lineBytes: 0 });
    expect((reading.streamDiagnostic as { reason: string }).reason).toContain('a blank line');
  });

  it('treats an event before init as malformed (R1.2)', async () => {
    const reading = await read(line(progress(0)) + line(result(1)));
    expect(reading.streamDiagnostic).toMatchObject({ kind: 'malformed', lineNumber: 1 });
    expect(reading.init).toBe('not-recorded');
  });

  it('treats an init whose seq is not 0 as malformed (R1.2)', async () => {
    const reading = await read(line(init(1)) + line(result(2)));
    expect(reading.streamDiagnostic).toMatchObject({ kind: 'malformed', lineNumber: 1 });
  });

  it('treats a second init as malformed (R1.2)', async () => {
    const reading = await read(line(init()) + line(init(1)) + line(result(2)));
    expect(reading.streamDiagnostic).toMatchObject({ kind: 'malformed', lineNumber: 2 });
    expect((reading.streamDiagnostic as { reason: string }).reason).toContain('second "init"');
  });

  it('treats a gap or a repeat in seq as malformed (R1.2)', async () => {
    const gap = await read(line(init()) + line(progress(2)) + line(result(3)));
    expect(gap.streamDiagnostic).toMatchObject({ kind: 'malformed', lineNumber: 2 });
    const repeat = await read(line(init()) + line(progress(1)) + line(progress(1)) + line(result(2)));
    expect(repeat.streamDiagnostic).toMatchObject({ kind: 'malformed', lineNumber: 3 });
  });

  it('treats a line over the bound as malformed and keeps only its first bytes as evidence (R7.5)', async () => {
    const huge = 'x'.repeat(100_000);
    const reading = await read(line(init()) + huge + '\n' + line(result(1)), 4096, 50_000);
    expect(reading.streamDiagnostic).toMatchObject({
      kind: 'malformed',
      lineNumber: 2,
      lineBytes: 100_000,
      lineBytesKept: OVERSIZE_EVIDENCE_BYTES,
      line: 'x'.repeat(OVERSIZE_EVIDENCE_BYTES),
    });
    expect((reading.streamDiagnostic as { reason: string }).reason).toContain('over the limit of 50000 bytes');
  });

  it('accepts a line of exactly the bound, with or without CRLF, and refuses one byte more', async () => {
    // Padded so this line, not the init before it, is the longest.
    const event = JSON.stringify({ ...result(1), usage: 'p'.repeat(400) });
    const bound = Buffer.byteLength(event);
    for (const ending of ['\n', '\r\n']) {
      const atBound = await read(line(init()) + event + ending, 5, bound);
      expect(atBound.streamDiagnostic).toBe('none');
      const wholeChunk = await read(line(init()) + event + ending, 1 << 20, bound);
      expect(wholeChunk.streamDiagnostic).toBe('none');
      const over = await read(line(init()) + event + ending, 5, bound - 1);
      expect(over.streamDiagnostic).toMatchObject({ kind: 'malformed', lineNumber: 2, lineBytes: bound });
    }
  });

  it('keeps exactly the oversize line as evidence, not the bytes after it, when it arrives whole in one chunk (R7.5)', async () => {
    const oversize = 'o'.repeat(300);
    const reading = await read(line(init()) + oversize + '\n' + line(result(1)), 1 << 20, 250);
    expect(reading.streamDiagnostic).toMatchObject({ kind: 'malformed', lineNumber: 2, line: oversize, lineBytes: 300, lineBytesKept: 300 });
  });

  it('stops at the first bad line even when later bad lines arrive in the same chunk (R7.5)', async () => {
    const reading = await read(line(init()) + 'first bad\nsecond bad\n' + 'z'.repeat(500) + '\n', 1 << 20, 250);
    expect(reading.streamDiagnostic).toMatchObject({ kind: 'malformed', lineNumber: 2, line: 'first bad' });
  });

  it('uses a 1 MiB bound by default (R7.5)', async () => {
    expect(DEFAULT_MAX_LINE_BYTES).toBe(1024 * 1024);
    const reading = await read(line(init()) + 'y'.repeat(DEFAULT_MAX_LINE_BYTES + 1) + '\n', 65536);
    expect(reading.streamDiagnostic).toMatchObject({ kind: 'malformed', lineBytes: DEFAULT_MAX_LINE_BYTES + 1 });
  });

  it('reports a line that is not valid UTF-8 as a read failure (R7.5)', async () => {
    const bytes = Buffer.concat([Buffer.from(line(init())), Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]), Buffer.from(line(result(1)))]);
    const reading = await read(bytes);
    expect(reading.streamDiagnostic).toMatchObject({ kind: 'read-failure', lineNumber: 2 });
    expect(reading.terminal).toBe('not-recorded');
  });

  it('reports a source that throws as a read failure, not an exception (R7.5)', async () => {
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield Buffer.from(line(init()) + '{"partial');
      await tick();
      throw new Error('pipe broke');
    }
    const reading = await readEventStream(failing());
    expect(reading.streamDiagnostic).toEqual({ kind: 'read-failure', lineNumber: 2, reason: 'the stream could not be read: pipe broke' });
    expect(reading.events.count).toBe(1);
  });

  it('puts malformed before read-failure: a malformed line followed by invalid UTF-8 and a broken source stays malformed (R7.5)', async () => {
    async function* stream(): AsyncGenerator<Uint8Array> {
      yield Buffer.from(line(init()) + 'not json\n');
      yield Buffer.from([0xff, 0x0a]);
      await tick();
      throw new Error('pipe broke');
    }
    const reading = await readEventStream(stream());
    expect(reading.streamDiagnostic).toMatchObject({ kind: 'malformed', lineNumber: 2 });
  });

  it('puts read-failure before no-result: invalid UTF-8 in a stream with no terminal is a read failure (R7.5)', async () => {
    const reading = await read(Buffer.concat([Buffer.from(line(init())), Buffer.from([0xc3, 0x28, 0x0a])]));
    expect(reading.streamDiagnostic).toMatchObject({ kind: 'read-failure' });
  });

  it('drains and counts lines after the terminal event without interpreting them (R7.4)', async () => {
    const after = 'not json\n' + line(init()) + '\n' + Buffer.from([0xff]).toString('latin1') + '\n' + 'z'.repeat(5000) + '\nlast';
    const reading = await read(complete + after, 11, 1000);
    expect(reading.streamDiagnostic).toBe('none');
    expect(reading.terminal).toMatchObject({ type: 'result' });
    expect(reading.events).toEqual({ count: 4, progress: 1, toolUses: 2, linesAfterTerminal: 6 });
  });

  it('treats an error event as terminal like a result, ending the trusted prefix (R7.4)', async () => {
    const error = { type: 'error', protocol: 1, seq: 1, code: 'unknown-scenario', message: 'no such scenario' };
    const reading = await read(line(init()) + line(error) + line(progress(2)));
    expect(reading.terminal).toMatchObject({ type: 'error' });
    expect(reading.streamDiagnostic).toBe('none');
    expect(reading.events.linesAfterTerminal).toBe(1);
  });

  it('keeps memory bounded over a long stream: only init, refusals, terminal and counts are kept (R7.5)', async () => {
    const { reading, retained } = await readLongStream(LONG_STREAM_EVENTS, (seq) => progress(seq, ['t']));
    expect(reading.events.count).toBe(LONG_STREAM_EVENTS + 1);
    expect(reading.events.toolUses).toBe(LONG_STREAM_EVENTS - 1);
    // 200 000 events of ~80 bytes is ~16 MB of text; a reader that kept them, as text or parsed,
    // would hold more than that. One that keeps counts holds a few buffers.
    expect(retained).toBeLessThan(RETAINED_BOUND_BYTES);
  });
});

describe('readEventStream keeps refusals bounded: a count, a digest and the first few (issue 9, R7.5)', () => {
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

  it('counts every refusal, digests their lines and keeps only the first REFUSAL_EXCERPT_COUNT, in order', async () => {
    const refusals = Array.from({ length: 50 }, (_, index) => line(refusal(index + 1)));
    const reading = await read(line(init()) + refusals.join('') + line(result(51)));
    expect(reading.refusals.count).toBe(50);
    expect(reading.refusals.digest).toEqual({ sha256: sha256(refusals.join('')), bytes: Buffer.byteLength(refusals.join('')) });
    expect(reading.refusals.excerpt).toEqual(Array.from({ length: REFUSAL_EXCERPT_COUNT }, (_, index) => refusal(index + 1)));
  });

  it('digests a CRLF refusal line as its bytes followed by one newline, the same as the LF line', async () => {
    const lf = await read(line(init()) + line(refusal(1)) + line(result(2)));
    const crlf = await read(line(init()) + line(refusal(1)).replace('\n', '\r\n') + line(result(2)));
    expect(crlf.refusals).toEqual(lf.refusals);
  });

  it('cuts a refusal line longer than REFUSAL_EXCERPT_LINE_BYTES to its head at a character boundary, giving its length', async () => {
    const long = { ...refusal(1), verbatim: { why: 'é'.repeat(REFUSAL_EXCERPT_LINE_BYTES) } };
    const text = JSON.stringify(long);
    const reading = await read(line(init()) + line(long) + line(result(2)));
    const [entry] = reading.refusals.excerpt;
    expect(entry).toMatchObject({ type: 'refusal', seq: 1, cut: { lineBytes: Buffer.byteLength(text) } });
    const head = entry !== undefined && 'cut' in entry ? entry.cut.head : '';
    expect(Buffer.byteLength(head)).toBeLessThanOrEqual(REFUSAL_EXCERPT_LINE_BYTES);
    expect(Buffer.byteLength(head)).toBeGreaterThan(REFUSAL_EXCERPT_LINE_BYTES - 2);
    expect(text.startsWith(head)).toBe(true);
    expect(reading.refusals.digest.sha256).toBe(sha256(`${text}\n`));
  });

  it('keeps memory bounded over a long run of refusals, as over progress events', async () => {
    const { reading, retained } = await readLongStream(LONG_STREAM_EVENTS, refusal);
    expect(reading.refusals.count).toBe(LONG_STREAM_EVENTS - 1);
    expect(reading.refusals.excerpt).toHaveLength(REFUSAL_EXCERPT_COUNT);
    // 200 000 refusals of ~90 bytes is ~18 MB of text, far more as objects; a reader that kept them would hold more than that.
    expect(retained).toBeLessThan(RETAINED_BOUND_BYTES);
  });
});

const LONG_STREAM_EVENTS = 200_000;
const RETAINED_BOUND_BYTES = 8 * 1024 * 1024;

/**
 * Reads init, `events - 1` events made by `eventAt` and a result, and measures what the reader
 * keeps while it reads: the heap after a full collection, taken inside the stream once all but the
 * last batch has been read, less the heap after a full collection before. A raw heap delta would
 * count garbage not yet collected, which depends on when the collector last ran, not on the reader.
 */
async function readLongStream(
  events: number,
  eventAt: (seq: number) => unknown,
): Promise<{ reading: Awaited<ReturnType<typeof readEventStream>>; retained: number }> {
  const collect = garbageCollector();
  let retained = Number.NaN;
  async function* long(): AsyncGenerator<Uint8Array> {
    yield Buffer.from(line(init()));
    await tick();
    const batch: string[] = [];
    for (let seq = 1; seq < events; seq += 1) {
      batch.push(line(eventAt(seq)));
      if (batch.length === 1000) yield Buffer.from(batch.splice(0).join(''));
    }
    collect();
    retained = process.memoryUsage().heapUsed - before;
    yield Buffer.from(batch.join('') + line(result(events)));
  }
  collect();
  const before = process.memoryUsage().heapUsed;
  const reading = await readEventStream(long());
  return { reading, retained };
}

/** The collector, reached without a command-line flag: V8 exposes `gc` to contexts made after the flag is set. */
function garbageCollector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
