/** The characters HTML gives a meaning to, in text and in a quoted attribute value alike. */
const SPECIAL: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Untrusted text (an agent's words, a check's output, a path, a diff) as HTML that shows it and
 * does nothing else: every markup character escaped, and the characters that would make shown
 * text read other than it is (bidirectional overrides, other invisible controls) named visibly,
 * so a diff cannot show a reviewer code in an order the compiler does not read it in.
 */
export function escapeHtml(text: string): string {
  // Control characters are what this looks for.
  // eslint-disable-next-line no-control-regex
  return text.replace(/[&<>"']|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, (character) => {
    const named = SPECIAL[character];
    if (named !== undefined) return named;
    return `<span class="control">U+${character.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0') ?? ''}</span>`;
  });
}
