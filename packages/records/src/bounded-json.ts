/**
 * The deepest nesting of JSON statecraft reads from a file it did not just write (a bundle, a
 * signature, a qualification record): far past any record it writes, far short of what comparing
 * a value recursively (canonical JSON, JSON.stringify) can take before the stack overflows, which
 * is a few thousand levels: ten thousand brackets are only 20 kB.
 */
const JSON_DEPTH_BOUND = 512;

/**
 * JSON.parse, refusing (a SyntaxError, as JSON.parse throws for text that is not JSON) a text
 * nested deeper than the bound, found by one pass over its characters before anything is built.
 */
export function parseBoundedJson(text: string, bound: number = JSON_DEPTH_BOUND): unknown {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index += 1;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      depth += 1;
      if (depth > bound) throw new SyntaxError(`nested deeper than ${String(bound)} levels`);
    } else if (code === 0x5d || code === 0x7d) depth -= 1;
  }
  return JSON.parse(text) as unknown;
}
