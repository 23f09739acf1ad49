import { isAscii } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import { terminalSafeJson } from './render/terminal-safe-text.js';

/**
 * Elements of a long array written per part: ~43 KB of text for `run list`'s summaries. A string
 * or buffer past ~128 KB gets fresh pages of its own, which the kernel faults in for every part;
 * smaller parts reuse the heap's pages.
 */
export const ELEMENTS_PER_PART = 100;

/** `JSON.stringify([[...]], null, 2)` wraps its elements in these: cut off, the elements are indented as in the document. */
const NESTED_OPEN = '[\n  [\n';
const NESTED_CLOSE = '\n  ]\n]';
/** An element of a top-level key's array is indented by four spaces. */
const ELEMENT_INDENT = '    ';

/**
 * Parts of long arrays whose text was rendered before the array was printed, by array: the UTF-8
 * of part `index` (elements `[index * ELEMENTS_PER_PART, ...)`) as partText gives it, or undefined.
 */
const renderedAhead = new WeakMap<readonly unknown[], (index: number) => Buffer | undefined>();

/**
 * Tells jsonInParts that some parts of `elements` are already rendered: `textOf(index)` is part
 * `index`'s text in UTF-8, or undefined to render it here. The caller answers for that text being
 * exactly partText of those elements as they are when printed (`run list` renders its attempts
 * while the chain is still read: commands/attempt-parts-ahead.ts). Held as bytes, the text is
 * encoded while the reading waits on its worker, and outside the heap the collector copies.
 */
export function useRenderedParts(elements: readonly unknown[], textOf: (index: number) => Buffer | undefined): void {
  renderedAhead.set(elements, textOf);
}

/** One part's elements as the one stringify writes them inside a top-level key's array, without the separator before them. */
export function partText(elements: readonly unknown[]): string {
  return terminalSafeJson(stringifiedPart(elements));
}

/** The part as stringify writes it nested, before terminal-safe escaping (which neither bracket line needs). */
function stringifiedPart(elements: readonly unknown[]): string {
  const nested = JSON.stringify([elements], null, 2);
  return nested.slice(NESTED_OPEN.length, nested.length - NESTED_CLOSE.length);
}

const DEL = 0x7f;

/**
 * partText's UTF-8, made for a part rendered ahead. Every character terminalSafeJson escapes is
 * DEL or past ASCII, so UTF-8 bytes all ASCII and holding no DEL have none: two native scans of the
 * bytes the part is encoded into anyway, where the pattern would walk the text character by
 * character. Anything else is made terminal-safe as partText makes it.
 */
export function partBytes(elements: readonly unknown[]): Buffer {
  const text = stringifiedPart(elements);
  const bytes = Buffer.from(text);
  return isAscii(bytes) && !bytes.includes(DEL) ? bytes : Buffer.from(terminalSafeJson(text));
}

/**
 * `JSON.stringify(value, null, 2)` followed by a newline, as consecutive pieces (text, or the
 * UTF-8 of a part rendered ahead): a top-level array longer than one part (`run list`'s 100,000
 * summaries) is stringified a part at a time, so the whole document (tens of MB) and its UTF-8
 * copy, which would be most of `run list`'s peak memory, are never held at once (decision 0023).
 * The pieces joined are exactly the bytes of the one stringify (json-in-parts.test.ts holds them
 * to it), made terminal-safe (terminal-safe-text.ts). Anything other than a plain object of plain data, or a value no long array sits at the
 * top of, is one piece.
 */
export function* jsonInParts(value: unknown): Generator<string | Buffer> {
  const longKeys = longArrayKeys(value);
  if (longKeys.length === 0) {
    yield `${terminalSafeJson(JSON.stringify(value, null, 2))}\n`;
    return;
  }
  const object = value as Record<string, unknown[]>;
  // The document around each long array: stringified with a marker in its place, split there.
  const marker = `statecraft-json-part-${randomUUID()}`;
  const frame = terminalSafeJson(JSON.stringify({ ...object, ...Object.fromEntries(longKeys.map((key) => [key, [marker]])) }, null, 2));
  const pieces = frame.split(`${ELEMENT_INDENT}${JSON.stringify(marker)}`);
  // The marker found elsewhere (in a value) would make the split wrong: then the one stringify.
  if (pieces.length !== longKeys.length + 1) {
    yield `${terminalSafeJson(JSON.stringify(value, null, 2))}\n`;
    return;
  }
  for (const [index, key] of longKeys.entries()) {
    yield pieces[index]!;
    const elements = object[key]!;
    const ahead = renderedAhead.get(elements);
    for (let start = 0; start < elements.length; start += ELEMENTS_PER_PART) {
      if (start !== 0) yield ',\n';
      yield ahead?.(start / ELEMENTS_PER_PART) ?? partText(elements.slice(start, start + ELEMENTS_PER_PART));
    }
  }
  yield `${pieces[longKeys.length]!}\n`;
}

/**
 * The keys of a plain object whose values are arrays longer than one part. Only plain data is
 * split: a `toJSON` on the object or the array could answer differently for a part than for the
 * whole. (An element's `toJSON` is handed its index within the part, not the array: no value a
 * verb answers has one that reads it.)
 */
function longArrayKeys(value: unknown): string[] {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return [];
  if ('toJSON' in value) return [];
  return Object.entries(value)
    .filter(([, field]) => Array.isArray(field) && Object.getPrototypeOf(field) === Array.prototype && field.length > ELEMENTS_PER_PART && !('toJSON' in field))
    .map(([key]) => key);
}
