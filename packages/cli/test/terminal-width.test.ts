import { describe, expect, it } from 'vitest';
import { breakToRows, breakToWidth, clipped, fitRows, padded, shortDigest, shortDigests, widthOf } from '../src/render/terminal-width.js';

const WIDE = '\u6771';

describe('terminal width: untrusted words held to the columns a terminal gives them', () => {
  it('measures wide characters as two columns, joining marks as none, and escapes as the writer prints them', () => {
    expect(widthOf(`ab${WIDE}`)).toBe(4);
    expect(widthOf('e\u0301')).toBe(1);
    expect(widthOf('a\nb')).toBe('a\\u000ab'.length);
    // A text heart made an emoji takes two; a joined emoji counts each of its parts, more than it takes.
    expect(widthOf('\u2764\ufe0f')).toBe(2);
    expect(widthOf('\u{1f468}\u200d\u{1f469}')).toBe(4);
  });

  it('breaks after a space or a slash in the second half of the room, else where the room is full', () => {
    expect(breakToWidth('aaaa bbbb cccc', 10)).toEqual(['aaaa bbbb ', 'cccc']);
    expect(breakToWidth('some/long/path/name', 10)).toEqual(['some/long/', 'path/name']);
    // A full row followed by a space ends after the space before it: the pieces joined are the text.
    expect(breakToWidth('aaaa bbbb cccc', 9)).toEqual(['aaaa ', 'bbbb cccc']);
    expect(breakToWidth('aaaaaaaa bbbb', 8)).toEqual(['aaaaaaa', 'a bbbb']);
    expect(breakToWidth('x'.repeat(25), 10, 8)).toEqual(['x'.repeat(10), 'x'.repeat(8), 'x'.repeat(7)]);
    expect(breakToWidth('', 10)).toEqual(['']);
  });

  it('holds a text to a number of rows: the last holds the rest of the text from where it starts, cut with an ellipsis', () => {
    expect(breakToRows('aaaa bbbb cccc', 10, 2)).toEqual(['aaaa bbbb ', 'cccc']);
    // Rejoining the pieces after a break at a space doubled the space: "… an  a…".
    expect(breakToRows('aaaa bbbb cccc dddd eeee', 10, 2)).toEqual(['aaaa bbbb ', 'cccc dddd…']);
    expect(breakToRows('some/long/path/name/more', 10, 2)).toEqual(['some/long/', 'path/name…']);
    expect(breakToRows(`${WIDE.repeat(12)}`, 10, 2)).toEqual([WIDE.repeat(5), `${WIDE.repeat(4)}…`]);
  });

  it('never lets a piece take more columns than its room, whatever the text holds', () => {
    for (const text of [`ok${' '.repeat(200)}acceptance: accepted`, WIDE.repeat(100), `${'a'.repeat(9)}${WIDE.repeat(9)}`, '\u001b[2K'.repeat(30)]) {
      const pieces = breakToWidth(text, 10, 7);
      expect(widthOf(pieces[0] ?? '')).toBeLessThanOrEqual(10);
      for (const piece of pieces.slice(1)) expect(widthOf(piece)).toBeLessThanOrEqual(7);
    }
    // A character wider than the room still moves on: one per row.
    expect(breakToWidth(WIDE.repeat(3), 1)).toEqual([WIDE, WIDE, WIDE]);
  });

  it('clips to the room with an ellipsis, at the start or keeping the end, and pads to the columns taken', () => {
    expect(clipped('abcdef', 4)).toBe('abc…');
    expect(clipped('abcdef', 4, 'end')).toBe('…def');
    expect(clipped(WIDE.repeat(5), 6)).toBe(`${WIDE.repeat(2)}…`);
    expect(clipped('abc', 4)).toBe('abc');
    expect(padded(`${WIDE}a`, 5)).toBe(`${WIDE}a  `);
  });

  it('fits each row to 80 columns, the rest of a broken row under its value', () => {
    const value = `${'word '.repeat(30)}end`;
    const rows = fitRows([`adapter   ${value}`, `  qualification  ${value}`, `no label here ${value}`, [{ text: 'x'.repeat(100), tone: 'good' }]]);
    for (const row of rows.slice(0, -1)) {
      expect(typeof row).toBe('string');
      expect(widthOf(row as string)).toBeLessThanOrEqual(80);
    }
    const starts = (rows.slice(0, -1) as string[]).map((row) => /^ */.exec(row)?.[0].length);
    expect(starts).toEqual([0, 10, 10, 2, 17, 17, 0, 2, 2]);
    // A row in toned parts is statecraft's own and is left whole.
    expect(rows.at(-1)).toEqual([{ text: 'x'.repeat(100), tone: 'good' }]);
  });

  it('shows a digest by its first 12 digits, alone or written in a text; a key id and other words stay whole', () => {
    const hex = 'ab'.repeat(32);
    expect(shortDigest(`sha256:${hex}`)).toBe('sha256:abababababab');
    expect(shortDigest(hex)).toBe('abababababab');
    expect(shortDigest('not-recorded')).toBe('not-recorded');
    expect(shortDigests(`adapter (sha256:${hex}), not sha256:${hex}0; key ${hex}`)).toBe(`adapter (sha256:abababababab), not sha256:${hex}0; key ${hex}`);
  });
});
