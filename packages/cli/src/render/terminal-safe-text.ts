/**
 * Text from an untrusted source made safe to print to a terminal. An adapter's words (its claim,
 * its error, a refused tool's name, its manifest), a check's command and output, a file name the
 * agent chose, a record's fields: control characters in them would be obeyed by the terminal (a
 * cursor moved up and a line cleared can repaint `refused` as `completed`), a line break would start
 * a line that looks like statecraft's own (`acceptance: accepted …`), and a bidi override would show
 * the text in another order than it is. Each is shown as a `\u001b`-style escape instead, so the text
 * and the --json document tell the same facts (R11).
 */
// C0 (line feed, carriage return, tab and ESC among them), DEL, C1 (NEL, CSI among them), the
// Unicode line and paragraph separators, and the bidi marks, embeddings, overrides and isolates.
// Control characters are exactly what this pattern is for.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function escaped(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** One value, or one line: nothing in it can end the line, start another or be obeyed by the terminal. */
export function terminalSafeValue(text: string): string {
  return text.replace(UNSAFE, escaped);
}

// What JSON.stringify leaves as it is: it escapes C0 inside strings, and writes only its own line
// breaks and spaces outside them. One without `g` to look, whose lastIndex never moves.
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const EVERY_UNSAFE_IN_JSON = new RegExp(UNSAFE_IN_JSON.source, 'g');

/**
 * A JSON document's text (JSON.stringify's) with each character terminalSafeValue escapes written
 * as a `\u` escape: `--json` shows no raw C1 control, line separator or bidi mark in a terminal,
 * and still parses to the exact same value.
 */
export function terminalSafeJson(text: string): string {
  return UNSAFE_IN_JSON.test(text) ? text.replace(EVERY_UNSAFE_IN_JSON, escaped) : text;
}
