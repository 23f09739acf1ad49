/**
 * Text from an untrusted source made safe to print to a terminal. An adapter's words (its claim's
 * status and reason, a refused tool's name, its manifest) reach the human rendering, and control
 * characters in them would be obeyed by the terminal: a cursor moved up and a line cleared can
 * repaint `refused` as `completed` (found by a hostile adapter, 2026-12-01). They are shown as
 * `\u001b`-style escapes instead, so the text and the --json document tell the same facts (R11).
 */
// Control characters are exactly what these patterns are for.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex
const CONTROLS_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

function escaped(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** One value, newlines and tabs included: it cannot start a line that looks like statecraft's own. */
export function terminalSafeValue(text: string): string {
  return text.replace(CONTROLS, escaped);
}

/** A whole rendering: its own newlines and tabs kept, every other control character shown as an escape. */
export function terminalSafeText(text: string): string {
  return text.replace(CONTROLS_BUT_LINES, escaped);
}
