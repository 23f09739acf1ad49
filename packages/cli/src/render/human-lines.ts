import { terminalSafeValue } from './terminal-safe-text.js';

/** What a word of statecraft's own says, shown in color on a terminal: a good, bad or unfinished end. */
export type Tone = 'good' | 'bad' | 'warn';

/** A line in parts, each part's text escaped as a whole line is; a toned part is colored where color is wanted. */
export type HumanSpans = readonly { text: string; tone?: Tone }[];

/**
 * A rendering for a person: its lines, each without a line break. Every renderer returns this, and
 * `writeHumanLines` is the one place it reaches a terminal: each line (or each part of a line in
 * parts) is written through terminalSafeValue whole, so no value interpolated into it — an adapter's
 * error, a file name, a check's output, a record's field — can start a line of its own, however the
 * renderer built it. Color is added after the escaping, to statecraft's own words only.
 */
export type HumanLines = readonly (string | HumanSpans)[];

const SGR: Record<Tone, string> = { good: '\u001b[32m', bad: '\u001b[31m', warn: '\u001b[33m' };

/**
 * Color only on a terminal that wants it: the stream is a TTY, NO_COLOR is unset or empty
 * (no-color.org) and TERM is not `dumb`. A pipe, a file or a log never gets escape sequences.
 */
function wantsColor(stream: NodeJS.WritableStream, environment: Readonly<Record<string, string | undefined>> = process.env): boolean {
  const tty = (stream as NodeJS.WritableStream & { isTTY?: boolean }).isTTY === true;
  return tty && (environment.NO_COLOR ?? '') === '' && environment.TERM !== 'dumb';
}

/** One line as the terminal gets it: escaped, and its toned parts colored when `color`. */
function humanLineText(line: string | HumanSpans, color: boolean): string {
  if (typeof line === 'string') return terminalSafeValue(line);
  return line
    .map((span) => {
      const text = terminalSafeValue(span.text);
      return color && span.tone !== undefined ? `${SGR[span.tone]}${text}\u001b[39m` : text;
    })
    .join('');
}

/** Writes the lines, the first after `prefix` (`statecraft: ` on stderr), each ended by a line break. */
export function writeHumanLines(stream: NodeJS.WritableStream, lines: HumanLines, prefix = ''): void {
  const color = wantsColor(stream);
  stream.write(`${prefix}${lines.map((line) => humanLineText(line, color)).join('\n')}\n`);
}
