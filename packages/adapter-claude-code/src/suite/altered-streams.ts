import { join } from 'node:path';
import { type LineAlteration, writeAlteredStreams as writeLineAlterations } from '@statecraft/adapter';
import { recordedStreamsDirectory } from '../paths.js';

/** The stream defects the suite's rows 4 and 5 replay, each made from the recorded `completed` stream. */
export type StreamAlteration = 'malformed' | 'read-failure' | 'no-result' | 'no-cost';

const isResult = (line: Buffer) => line.includes('"type":"result"');

/** Each alteration is one small, named edit of the recorded lines; nothing else changes. */
const ALTERATIONS: Readonly<Record<StreamAlteration, LineAlteration>> = {
  // A line that is not JSON, right after the init.
  malformed: (lines) => [...lines.slice(0, 1), Buffer.from('{"type":"assistant","message": this is not JSON'), ...lines.slice(1)],
  // An assistant line whose text carries bytes that are not UTF-8 (0xC3 0x28 is an invalid pair).
  'read-failure': (lines) =>
    lines.map((line) => (line.includes('"type":"assistant"') ? Buffer.from(line.toString('latin1').replace('Nothing', 'N\u00c3(thing'), 'latin1') : line)),
  // Cut before the terminal result: the session never said how it ended.
  'no-result': (lines) => lines.filter((line) => !isResult(line)),
  // The terminal result without `total_cost_usd`.
  'no-cost': (lines) => lines.map((line) => (isResult(line) ? Buffer.from(line.toString('utf8').replace(/"total_cost_usd":[0-9.eE+-]+,/, '')) : line)),
};

/** Writes `<alteration>.jsonl` into `directory` from the recorded completed stream; returns the paths. */
export function writeAlteredStreams(directory: string): Promise<Record<StreamAlteration, string>> {
  return writeLineAlterations(join(recordedStreamsDirectory(), 'completed.jsonl'), directory, ALTERATIONS);
}
