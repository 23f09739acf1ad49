/** The characters HTML gives a meaning to, in text and in a quoted attribute value alike. */
const SPECIAL: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * What the page never shows as itself: markup characters (escaped), and by class, not by list,
 * every control character but tab and line feed (Cc), every format character (Cf: each
 * bidirectional control, U+061C the Arabic letter mark among them, which a list had missed and
 * which makes a browser show `12-34` as `34-12`; the zero-width characters, the soft hyphen, the
 * tag characters) and the line and paragraph separators (Zl, Zp): each named visibly.
 */
const UNSHOWN = /[&<>"']|(?![\t\n])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/**
 * Untrusted text (an agent's words, a check's output, a path, a diff) as HTML that shows it and
 * does nothing else: every markup character escaped, and the characters that would make shown
 * text read other than it is (bidirectional overrides, other invisible controls) named visibly,
 * so a diff cannot show a reviewer code in an order the compiler does not read it in.
 */
export function escapeHtml(text: string): string {
  return text.replace(UNSHOWN, (character) => {
    const named = SPECIAL[character];
    if (named !== undefined) return named;
    return `<span class="control">U+${character.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0') ?? ''}</span>`;
  });
}
