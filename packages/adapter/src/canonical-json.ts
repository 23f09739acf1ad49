/**
 * One spelling of a JSON value: object keys sorted (by UTF-16 code units, as `Array.prototype.sort`
 * compares them), no whitespace, strings and numbers as `JSON.stringify` writes them, arrays in
 * their order, absent (`undefined`) members left out. Two documents that parse to the same value
 * have the same canonical text whatever their indentation or key order, so a digest of it binds
 * what a reader acts on, not how the file happens to be laid out.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((entry: unknown) => canonicalJson(entry)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value as Record<string, unknown>)
      .filter(([, member]) => member !== undefined)
      .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
    return `{${members.map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`).join(',')}}`;
  }
  const text = JSON.stringify(value);
  // Only JSON's own values reach here from a parsed document; anything else has no JSON spelling.
  if (text === undefined) throw new TypeError(`no JSON spelling for a ${typeof value}`);
  return text;
}
