import type { HumanLines, HumanSpans } from './human-lines.js';
import { terminalSafeValue } from './terminal-safe-text.js';

/** The width a person's terminal is assumed to have: every answer's rows fit it. */
const WIDTH = 80;

/**
 * Lines wider than a terminal broken to fit it (after a space or a slash where one is near the
 * edge), each piece after the first indented to the value column: a value cannot run on past the edge into what looks like a row of statecraft's own
 * (an adapter's claim padded with spaces to the edge, then `  acceptance     accepted …`). Measured
 * as the terminal gets them, escaped (the writer's escaping then changes nothing); a line in toned
 * parts is statecraft's own words and stays as it is.
 */
export function fitToWidth(lines: HumanLines, indent: number): HumanLines {
  return lines.flatMap((line): (string | HumanSpans)[] => {
    if (typeof line !== 'string') return [line];
    let rest = terminalSafeValue(line);
    const pieces: string[] = [];
    let room = WIDTH;
    while (rest.length > room) {
      // After a space or a slash in the second half of the room, where there is one; else where it is full.
      const at = Math.max(rest.lastIndexOf(' ', room - 1), rest.lastIndexOf('/', room - 1)) + 1;
      const end = at > room / 2 ? at : room;
      pieces.push(`${pieces.length === 0 ? '' : ' '.repeat(indent)}${rest.slice(0, end)}`);
      rest = rest.slice(end);
      room = WIDTH - indent;
    }
    pieces.push(`${pieces.length === 0 ? '' : ' '.repeat(indent)}${rest}`);
    return pieces;
  });
}
