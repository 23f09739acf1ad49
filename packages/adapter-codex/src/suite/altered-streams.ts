import { join } from 'node:path';
import { type LineAlteration, writeAlteredStreams as writeLineAlterations } from '@statecraft/adapter';
import { recordedStreamsDirectory } from '../paths.js';

/** The stream defects replayed for rows 4 and 5 and the fake-provider tests, each made from the recorded `completed` stream. */
export type StreamAlteration = 'malformed' | 'read-failure' | 'no-result' | 'truncated' | 'no-cost';

const isTurnCompleted = (line: Buffer) => line.includes('"type":"turn.completed"');

/** Each alteration is one small, named edit of the recorded lines; nothing else changes. */
const ALTERATIONS: Readonly<Record<StreamAlteration, LineAlteration>> = {
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

/** Writes `<alteration>.jsonl` into `directory` from the recorded completed stream; returns the paths. */
export function writeAlteredStreams(directory: string): Promise<Record<StreamAlteration, string>> {
  // The truncated stream ends without a line end; every other one ends with one.
  return writeLineAlterations(join(recordedStreamsDirectory(), 'completed.jsonl'), directory, ALTERATIONS, new Set(['truncated']));
}
