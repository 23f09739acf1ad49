import { nestsDeeperThan } from '@statecraft/adapter';

/**
 * The deepest nesting of JSON statecraft reads from a file it did not just write (a bundle, a
 * signature, a qualification record): far past any record it writes, far short of what comparing
 * a value recursively (canonical JSON, JSON.stringify) can take before the stack overflows, which
 * is a few thousand levels: ten thousand brackets are only 20 kB.
 */
const JSON_DEPTH_BOUND = 512;

/**
 * JSON.parse, refusing (a SyntaxError, as JSON.parse throws for text that is not JSON) a value
 * nested deeper than the bound: JSON.parse itself reads any depth, and the seam's walk
 * (nestsDeeperThan, the stream reader's) measures it without recursion.
 */
export function parseBoundedJson(text: string, bound: number = JSON_DEPTH_BOUND): unknown {
  const value = JSON.parse(text) as unknown;
  if (nestsDeeperThan(value, bound)) throw new SyntaxError(`nested deeper than ${String(bound)} levels`);
  return value;
}
