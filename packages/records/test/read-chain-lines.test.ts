import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dir, type DirectoryResult } from 'tmp-promise';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readChainLines } from '@statecraft/records';

let scratch: DirectoryResult;
let directory: string;
beforeEach(async () => {
  scratch = await dir({ unsafeCleanup: true, prefix: 'statecraft-lines' });
  directory = scratch.path;
});
afterEach(async () => {
  await scratch.cleanup();
});

async function linesOf(text: string | Buffer, from = 0) {
  const file = join(directory, 'chain.jsonl');
  await writeFile(file, text);
  const handle = await open(file, 'r');
  const seen: { line: string; isLast: boolean; end: number }[] = [];
  try {
    const read = await readChainLines(handle, from, (line, isLast, end) => {
      seen.push({ line: line.toString('latin1'), isLast, end });
      return true;
    });
    return { seen, end: read.end, rest: read.rest.toString('latin1') };
  } finally {
    await handle.close();
  }
}

describe('the chain is read in chunks, line by line (R8.4)', () => {
  it('lines that straddle a 4 MiB chunk, and one longer than two chunks, are handed out whole and in order', async () => {
    const lines = ['a'.repeat(4 * 1024 * 1024 - 3), 'b'.repeat(10), 'c'.repeat(9 * 1024 * 1024), 'd'];
    const { seen, end, rest } = await linesOf(`${lines.join('\n')}\n`);
    expect(seen.map((entry) => entry.line)).toEqual(lines);
    expect(seen.map((entry) => entry.isLast)).toEqual([false, false, false, true]);
    expect(seen.at(-1)?.end).toBe(end);
    expect(rest).toBe('');
  });

  it('bytes after the last newline are the torn rest, not a line; the last complete line is the last', async () => {
    const { seen, end, rest } = await linesOf('one\ntwo\nthr');
    expect(seen).toEqual([
      { line: 'one', isLast: false, end: 4 },
      { line: 'two', isLast: true, end: 8 },
    ]);
    expect({ end, rest }).toEqual({ end: 8, rest: 'thr' });
  });

  it('reading from an offset hands out only the lines after it, with offsets in the whole file', async () => {
    const { seen } = await linesOf(Buffer.from('\u00ff\u00ff\u00ff\nsecond\nthird\n', 'latin1'), 4);
    expect(seen).toEqual([
      { line: 'second', isLast: false, end: 11 },
      { line: 'third', isLast: true, end: 17 },
    ]);
  });
});
