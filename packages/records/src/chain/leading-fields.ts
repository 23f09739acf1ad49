/**
 * How much of a line is decoded to look for its leading fields: they take ~350 bytes as `run`
 * writes them, so one short decoding usually holds them; a line whose leading fields run longer
 * (a long adapter name) is decoded whole.
 */
export const LEADING_PREFIX_BYTES = 512;

/**
 * The text before the first key that ends its kind's leading fields, if the text holds it. Every
 * field before these keys is constrained (digests, ISO times, run ids, enums, numbers, a manifest
 * name and a semantic version) and can hold none of these sequences, so their first occurrence is
 * the real key. It refers to nothing outside its body: the worker that reads summaries is given
 * its source text (summary-reading-on-worker.ts) and finds the very same fields.
 */
export function leadingFieldsFinder(): (text: string) => string | undefined {
  const ends = new Map([
    ['intent', ',"target":{'],
    ['outcome', ',"result":{'],
    ['acceptance', ',"candidate":'],
    ['land', ',"receipt":{'],
    ['prune', ',"removed":['],
    ['selection', ',"rule":{'],
  ]);
  const kindAt = ',"kind":"';
  return (text) => {
    const at = text.indexOf(kindAt);
    if (at === -1) return undefined;
    const kindEnd = text.indexOf('"', at + kindAt.length);
    const end = kindEnd === -1 ? undefined : ends.get(text.slice(at + kindAt.length, kindEnd));
    const cut = end === undefined ? -1 : text.indexOf(end);
    return cut === -1 ? undefined : text.slice(0, cut);
  };
}
