import { eastAsianWidth } from 'get-east-asian-width';
import type { HumanLines, HumanSpans } from './human-lines.js';
import { terminalSafeValue } from './terminal-safe-text.js';

/** The width a person's terminal is assumed to have: every answer's rows fit it. */
export const WIDTH = 80;

/** Combining and enclosing marks and the invisible format characters: drawn on the one before. */
const DRAWN_ON_ANOTHER = /^[\p{Mn}\p{Me}\p{Default_Ignorable_Code_Point}]$/u;
/** Emoji presentation: a text character followed by it is drawn two columns wide. */
const EMOJI_SELECTOR = '\ufe0f';

function columnsOf(character: string): number {
  if (character === EMOJI_SELECTOR) return 1;
  if (DRAWN_ON_ANOTHER.test(character)) return 0;
  return eastAsianWidth(character.codePointAt(0) ?? 0);
}

/**
 * Each character of the text with the columns a terminal gives it: two for a wide or full-width
 * one (East Asian, most emoji), none for a mark drawn on the one before. Measured one at a time,
 * a sequence the terminal draws as one (an emoji joined from several) counts more than it takes,
 * never less; the emoji selector adds the column it makes a text character take.
 */
function measured(safe: string): { characters: string[]; columns: number[] } {
  const characters = [...safe];
  return { characters, columns: characters.map(columnsOf) };
}

/** The columns the text takes on a terminal, as the writer prints it (escaped). */
export function widthOf(text: string): number {
  return measured(terminalSafeValue(text)).columns.reduce((sum, columns) => sum + columns, 0);
}

/** The value escaped as the writer escapes it, cut to `room` columns, `…` where it was cut (its end kept with `keep: 'end'`). */
export function clipped(text: string, room: number, keep: 'start' | 'end' = 'start'): string {
  const safe = terminalSafeValue(text);
  const { characters, columns } = measured(safe);
  if (columns.reduce((sum, taken) => sum + taken, 0) <= room) return safe;
  if (keep === 'end') {
    characters.reverse();
    columns.reverse();
  }
  let used = 0;
  let end = 0;
  while (end < characters.length && used + (columns[end] ?? 0) <= room - 1) used += columns[end++] ?? 0;
  const kept = characters.slice(0, end);
  return keep === 'end' ? `…${kept.reverse().join('')}` : `${kept.join('')}…`;
}

/** The value clipped to `room` columns, then padded with spaces to take exactly that many. */
export function padded(text: string, room: number): string {
  const value = clipped(text, room);
  return `${value}${' '.repeat(Math.max(0, room - widthOf(value)))}`;
}

/**
 * `text` as the terminal gets it (escaped), in pieces of at most `room` columns (`restRoom` after
 * the first): each ends after the last space or slash in the second half of its room where there is
 * one, else where the room is full (a character short of it where a space would start the next);
 * so the pieces joined are the text, always. Whatever the text holds (padding to the edge, a word
 * longer than a row, wide characters), no piece runs on past the edge into what looks like a row
 * of statecraft's own.
 */
export function breakToWidth(text: string, room: number, restRoom = room): string[] {
  return piecesOf(measured(terminalSafeValue(text)), room, restRoom).map(({ text: piece }) => piece);
}

/**
 * As breakToWidth, over at most `rows` pieces of `room` columns: where the text needs more, the
 * last row holds what is left of it from where that row starts, cut with `…`.
 */
export function breakToRows(text: string, room: number, rows: number): string[] {
  const safe = measured(terminalSafeValue(text));
  const pieces = piecesOf(safe, room, room);
  if (pieces.length <= rows) return pieces.map(({ text: piece }) => piece);
  const last = pieces[rows - 1]?.start ?? 0;
  return [...pieces.slice(0, rows - 1).map(({ text: piece }) => piece), clipped(safe.characters.slice(last).join(''), room)];
}

function piecesOf({ characters, columns }: { characters: string[]; columns: number[] }, room: number, restRoom: number): { text: string; start: number }[] {
  const pieces: { text: string; start: number }[] = [];
  let start = 0;
  let fits = room;
  for (;;) {
    let end = start;
    let used = 0;
    let cut = -1;
    let usedAtCut = 0;
    while (end < characters.length && used + (columns[end] ?? 0) <= fits) {
      used += columns[end] ?? 0;
      end += 1;
      if (characters[end - 1] === ' ' || characters[end - 1] === '/') [cut, usedAtCut] = [end, used];
    }
    if (end === characters.length) break;
    // A character wider than the whole room still goes on a row of its own. A long word that
    // fills the row to its edge leaves its last character to the next: no row starts with a space.
    const full = characters[end] === ' ' && end - 1 > start ? end - 1 : end;
    const at = cut !== -1 && usedAtCut > fits / 2 ? cut : Math.max(full, start + 1);
    pieces.push({ text: characters.slice(start, at).join(''), start });
    start = at;
    fits = restRoom;
  }
  if (start < characters.length || pieces.length === 0) pieces.push({ text: characters.slice(start).join(''), start });
  return pieces;
}

/**
 * Lines wider than a terminal broken to fit it, each piece after the first indented to the value
 * column. A line in toned parts is statecraft's own words and stays as it is.
 */
export function fitToWidth(lines: HumanLines, indent: number): HumanLines {
  return lines.flatMap((line): (string | HumanSpans)[] =>
    typeof line === 'string'
      ? breakToWidth(line, WIDTH, WIDTH - indent).map((piece, index) => (index === 0 ? piece : `${' '.repeat(indent)}${piece}`))
      : [line],
  );
}

/** The longest label a row's value is indented past when the row is broken. */
const LONGEST_LABEL = 24;

/**
 * The column a row's value starts at: after its label (words with single spaces between them) and
 * the two or more spaces that end it, or two columns past the row's own indent where it has none.
 */
function valueColumn(row: string): number {
  const labelled = /^( *\S+(?: \S+)*? {2,})\S/.exec(row);
  if (labelled?.[1] !== undefined && labelled[1].length <= LONGEST_LABEL) return labelled[1].length;
  return (/^ */.exec(row)?.[0].length ?? 0) + 2;
}

/**
 * Rows wider than a terminal broken to fit it, each piece after the first indented to the row's
 * own value column (valueColumn). A row in toned parts is statecraft's own words and stays as it is.
 */
export function fitRows(lines: HumanLines): HumanLines {
  return lines.flatMap((line): (string | HumanSpans)[] => (typeof line === 'string' ? [...fitToWidth([line], valueColumn(line))] : [line]));
}

/** A `sha256:<hex>` digest as a person reads it in a row: its first 12 digits (the whole in `--json`). */
export function shortDigest(digest: string): string {
  return /^[0-9a-f]{64}$/.test(digest) ? digest.slice(0, 12) : shortDigests(digest);
}

/** Every `sha256:<hex>` digest written in the text cut to its first 12 digits; a key's id (bare hex) stays whole. */
export function shortDigests(text: string): string {
  return text.replace(/\bsha256:([0-9a-f]{12})[0-9a-f]{52}\b/g, 'sha256:$1');
}
