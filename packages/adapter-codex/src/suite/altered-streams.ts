import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { recordedStreamsDirectory } from '../paths.js';

/** The stream defects replayed for rows 4 and 5 and the fake-provider tests, each made from the recorded `completed` stream. */
export type StreamAlteration = 'malformed' | 'read-failure' | 'no-result' | 'truncated' | 'no-cost';

const isTurnCompleted = (line: Buffer) => line.includes('"type":"turn.completed"');

/** Each alteration is one small, named edit of the recorded lines; nothing else changes. */
const ALTERATIONS: Readonly<Record<StreamAlteration, (lines: Buffer[]) => Buffer[]>> = {
  // A line that is not JSON, right after thread.started.
  malformed: (lines) => [...lines.slice(0, 1), Buffer.from('{"type":"item.completed","item": this is not JSON'), ...lines.slice(1)],
  // The agent message's text carries bytes that are not UTF-8 (0xC3 0x28 is an invalid pair).
  'read-failure': (lines) =>
    lines.map((line) => (line.includes('"type":"agent_message"') ? Buffer.from(line.toString('latin1').replace('Nothing', 'N\u00c3(thing'), 'latin1') : line)),
  // Read to its end without turn.completed: the session never said how it ended.
  'no-result': (lines) => lines.filter((line) => !isTurnCompleted(line)),
  // Cut in the middle of turn.completed, with no line end: a stream that stopped mid-write.
  truncated: (lines) => lines.map((line) => (isTurnCompleted(line) ? line.subarray(0, Math.floor(line.length / 2)) : line)),
  // Codex never reports a cost: the recorded stream as it is (row 5 reads `unknown`).
  'no-cost': (lines) => lines,
};

function splitLines(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let index = bytes.indexOf(0x0a); index !== -1; index = bytes.indexOf(0x0a, start)) {
    if (index > start) lines.push(bytes.subarray(start, index));
    start = index + 1;
  }
  if (start < bytes.length) lines.push(bytes.subarray(start));
  return lines;
}

/** Writes `<alteration>.jsonl` into `directory` from the recorded completed stream; returns the paths. */
export async function writeAlteredStreams(directory: string): Promise<Record<StreamAlteration, string>> {
  const recorded = splitLines(await readFile(join(recordedStreamsDirectory(), 'completed.jsonl')));
  const paths = {} as Record<StreamAlteration, string>;
  for (const [name, alter] of Object.entries(ALTERATIONS) as Array<[StreamAlteration, (lines: Buffer[]) => Buffer[]]>) {
    const path = join(directory, `${name}.jsonl`);
    const altered = alter(recorded);
    // The truncated stream ends without a line end; every other one ends with one.
    const bytes = altered.flatMap((line, index) => (name === 'truncated' && index === altered.length - 1 ? [line] : [line, Buffer.from('\n')]));
    await writeFile(path, Buffer.concat(bytes));
    paths[name] = path;
  }
  return paths;
}
