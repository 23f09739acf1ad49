import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { StreamLog } from '../src/commands/run-log.js';

// The timeline's reader counts the lines past its bound and their refusals, however the bytes are
// cut into chunks: a refusal word found once per chunk must count the same as one searched per line.

const refusal = (seq: number) => JSON.stringify({ type: 'refusal', protocol: 1, seq, tool: 'Bash', verbatim: { command: 'git push' } });
const progress = (seq: number, text: string) => JSON.stringify({ type: 'progress', protocol: 1, seq, kind: 'message', tools: [], detail: { text } });

/** A stream whose refusals and look-alikes fall everywhere: at chunk edges, in texts, in lines that are not JSON. */
function stream(): Buffer {
  const lines: string[] = [];
  for (let seq = 0; seq < 400; seq += 1) {
    if (seq % 7 === 0) lines.push(refusal(seq));
    else if (seq % 11 === 0) lines.push(progress(seq, 'the word "refusal" in a text'));
    else if (seq % 13 === 0) lines.push('not json "refusal"');
    else lines.push(progress(seq, 'x'.repeat(seq % 50)));
  }
  return Buffer.from(`${lines.join('\n')}\r\n${refusal(400)}`);
}

function read(bytes: Buffer, chunk: number, bound: number) {
  const log = new StreamLog(bound);
  for (let at = 0; at < bytes.length; at += chunk) log.push(Buffer.from(bytes.subarray(at, at + chunk)));
  const artifact = { path: 'stream.ndjson', sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
  return log.finish(artifact, { kind: 'read', sha256: artifact.sha256, bytes: artifact.bytes });
}

describe('the timeline of a stream read in chunks', () => {
  it('counts the same omitted lines and refusals whatever the chunks', () => {
    const bytes = stream();
    const lines = bytes.toString('utf8').split('\n');
    const bound = 100;
    const expectedRefusals = lines.slice(bound).filter((line) => {
      try {
        return (JSON.parse(line) as { type?: unknown }).type === 'refusal';
      } catch {
        return false;
      }
    }).length;
    expect(expectedRefusals).toBeGreaterThan(30);
    for (const chunk of [1, 3, 9, 10, 64, 1000, bytes.length]) {
      const value = read(bytes, chunk, bound);
      expect(value.stream.state).toBe('verified');
      expect(value.events).toHaveLength(bound);
      expect({ chunk, omitted: value.omitted, refusals: value.omittedRefusals }).toEqual({ chunk, omitted: lines.length - bound, refusals: expectedRefusals });
    }
  });
});

describe("the timeline that reads only what it lists (an export's page)", () => {
  function listed(bytes: Buffer, chunk: number, bound: number, words: number) {
    const log = new StreamLog(bound, { words });
    for (let at = 0; at < bytes.length; at += chunk) log.push(Buffer.from(bytes.subarray(at, at + chunk)));
    const artifact = { path: 'stream.ndjson', sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
    return log.finish(artifact, { kind: 'read', sha256: artifact.sha256, bytes: artifact.bytes });
  }

  it('stops at the first line past the bound, says where it starts, and counts nothing after it, whatever the chunks', () => {
    const bytes = stream();
    const lines = bytes.toString('utf8').split('\n');
    const bound = 100;
    const where = Buffer.byteLength(lines.slice(0, bound).join('\n')) + 1;
    for (const chunk of [1, 3, 9, 10, 64, 1000, bytes.length]) {
      const value = listed(bytes, chunk, bound, 1_000_000);
      expect(value.events).toHaveLength(bound);
      expect({ chunk, listedBytes: value.listedBytes, omitted: value.omitted, refusals: value.omittedRefusals }).toEqual({
        chunk,
        listedBytes: where,
        omitted: 0,
        refusals: 0,
      });
    }
  });

  it('stops before the line whose words pass the bound, unless it is the first; a stream it lists whole has no listedBytes', () => {
    const texts = ['a'.repeat(30), 'b'.repeat(30), 'c'.repeat(30)];
    const bytes = Buffer.from(texts.map((text, seq) => `${progress(seq, text)}\n`).join(''));
    const first = Buffer.byteLength(`${progress(0, texts[0] ?? '')}\n`);
    expect(listed(bytes, 7, 100, 10)).toMatchObject({ listedBytes: first });
    expect(listed(bytes, 7, 100, 10).events).toHaveLength(1);
    expect(listed(bytes, 7, 100, 59).events).toHaveLength(1);
    expect(listed(bytes, 7, 100, 60).events).toHaveLength(2);
    const whole = listed(bytes, 7, 100, 90);
    expect(whole.events).toHaveLength(3);
    expect(whole.listedBytes).toBeUndefined();
    // The last line without a newline is listed, or stopped at, as any other.
    const unended = bytes.subarray(0, bytes.length - 1);
    expect(listed(unended, 5, 2, 1000)).toMatchObject({ listedBytes: 2 * first });
    expect(listed(unended, 5, 3, 1000).listedBytes).toBeUndefined();
  });
});
