/**
 * Tools whose rule pattern claude 2.1.328 accepts and never matches: measured live on the model
 * double, under both permission modes, `--deny 'Write(w.txt)'` (and `Write(./w.txt)`) let the Write
 * tool write `w.txt` with no denial, while `Edit(w.txt)` denied that same Write call. Each maps to
 * the rule that does hold.
 */
const UNMATCHED_PATTERN_TOOLS: ReadonlyMap<string, string> = new Map([['Write', 'Edit']]);

/**
 * A deny rule claude would accept and never enforce, so a call it names would run unrecorded: refused
 * before claude starts, never dropped (R5.4), saying the rule that holds instead.
 */
export function unmatchedDenyRule(deny: readonly string[]): string | undefined {
  for (const rule of deny) {
    const match = /^([A-Za-z][A-Za-z0-9_]*)\((.*)\)$/s.exec(rule);
    const holds = match?.[1] === undefined ? undefined : UNMATCHED_PATTERN_TOOLS.get(match[1]);
    if (match !== null && holds !== undefined) {
      return `request limits.deny: ${JSON.stringify(rule)}: claude matches no pattern of a ${match[1]} rule, so the call would run unrecorded; deny ${holds}(${match[2] ?? ''}), which claude applies to ${match[1]} too`;
    }
  }
  return undefined;
}
