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
