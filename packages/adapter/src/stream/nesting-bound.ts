/**
 * The deepest nesting of arrays and objects a protocol event may have (R7.5). JSON.parse reads
 * far deeper lines than the rest of node can handle: JSON.stringify of a value nested ~10,000
 * deep overflows the stack, and an event's values are written again (a result's claim into the
 * outcome record), so a deep but short line once left its attempt with no outcome at all. 128
 * levels is far beyond any event an adapter means to write.
 */
export const MAX_EVENT_NESTING = 128;

const OPEN_BRACKET = 0x5b; // [
const OPEN_BRACE = 0x7b; // {

/**
 * Whether a line could nest deeper than `limit`: only if it holds more than `limit` opening
 * brackets and braces, counted with memchr-speed searches (strings included, so never too few).
 * Almost every line has a handful, and is then not walked at all.
 */
export function mayNestDeeperThan(bytes: Buffer, limit: number): boolean {
  let count = 0;
  for (const byte of [OPEN_BRACKET, OPEN_BRACE]) {
    for (let at = bytes.indexOf(byte); at !== -1; at = bytes.indexOf(byte, at + 1)) {
      count += 1;
      if (count > limit) return true;
    }
  }
  return false;
}

/** Whether a parsed JSON value nests arrays and objects deeper than `limit`, walked without recursion. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next.value !== 'object' || next.value === null) continue;
    const depth = next.depth + 1;
    if (depth > limit) return true;
    for (const child of Object.values(next.value)) pending.push({ value: child, depth });
  }
  return false;
}
