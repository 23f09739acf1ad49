import { terminalSafeValue } from './terminal-safe-text.js';

/**
 * A rendering for a person: its lines, each without a line break. Every renderer returns this, and
 * `writeHumanLines` is the one place it reaches a terminal: each line is written through
 * terminalSafeValue whole, so no value interpolated into it — an adapter's error, a file name, a
 * check's output, a record's field — can start a line of its own, however the renderer built it.
 */
export type HumanLines = readonly string[];

/** Writes the lines, the first after `prefix` (`statecraft: ` on stderr), each ended by a line break. */
export function writeHumanLines(stream: NodeJS.WritableStream, lines: HumanLines, prefix = ''): void {
  stream.write(`${prefix}${lines.map(terminalSafeValue).join('\n')}\n`);
}
