/**
 * Finds a line's leading fields: the text before the first key that ends its kind's leading
 * fields. Every field before these keys is constrained (digests, ISO times, run ids, enums,
 * numbers, a manifest name and a semantic version) and can hold none of these sequences, so their
 * first occurrence is the real key. It refers to nothing outside its body: the worker that reads
 * summaries is given its source text (summary-reading-on-worker.ts) and finds the very same fields.
 */
export function leadingFieldsFinder(): (bytes: Buffer, start: number, end: number) => string | undefined {
  // The leading fields take ~350 bytes as `run` writes them, so one short decoding usually holds
  // them; a line whose leading fields run longer (a long adapter name) is decoded whole.
  const PREFIX_BYTES = 512;
  const ends = new Map([
    ['intent', ',"target":{'],
    ['outcome', ',"result":{'],
    ['acceptance', ',"candidate":'],
    ['land', ',"receipt":{'],
    ['prune', ',"removed":['],
    ['selection', ',"rule":{'],
  ]);
  const kindAt = ',"kind":"';
  const find = (text: string) => {
    const at = text.indexOf(kindAt);
    if (at === -1) return undefined;
    const kindEnd = text.indexOf('"', at + kindAt.length);
    const end = kindEnd === -1 ? undefined : ends.get(text.slice(at + kindAt.length, kindEnd));
    const cut = end === undefined ? -1 : text.indexOf(end);
    return cut === -1 ? undefined : text.slice(0, cut);
  };
  return (bytes, start, end) => {
    const shortened = end - start > PREFIX_BYTES;
    const prefixEnd = shortened ? start + PREFIX_BYTES : end;
    // A multi-byte character cut at the prefix's end decodes as U+FFFD, past any key found before it.
    const leading = find(bytes.toString('utf8', start, prefixEnd));
    return leading === undefined && shortened ? find(bytes.toString('utf8', start, end)) : leading;
  };
}
