import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../src/render/html/escape-html.js';

describe('escapeHtml: untrusted text as HTML that only shows it', () => {
  it('escapes every character markup gives a meaning to, in text and in quoted attributes', () => {
    expect(escapeHtml(`<script>alert("x")</script> & <img src=x onerror='y'>`)).toBe(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;img src=x onerror=&#39;y&#39;&gt;',
    );
    // Already-escaped text is escaped again: what the agent wrote is what the reviewer reads.
    expect(escapeHtml('&lt;')).toBe('&amp;lt;');
  });

  it('names bidirectional overrides, zero-width and control characters visibly, and keeps newlines and tabs', () => {
    expect(escapeHtml('a\u202Eb')).toBe('a<span class="control">U+202E</span>b');
    expect(escapeHtml('\u2066x\u2069')).toBe('<span class="control">U+2066</span>x<span class="control">U+2069</span>');
    expect(escapeHtml('zero\u200Bwidth\uFEFF')).toBe('zero<span class="control">U+200B</span>width<span class="control">U+FEFF</span>');
    expect(escapeHtml('\u0000\u001b[31m\r')).toBe(
      '<span class="control">U+0000</span><span class="control">U+001B</span>[31m<span class="control">U+000D</span>',
    );
    expect(escapeHtml('line\n\tindented')).toBe('line\n\tindented');
  });

  it('leaves other text, non-Latin scripts and emoji included, as it is', () => {
    expect(escapeHtml('déjà vu — 東京 🙂')).toBe('déjà vu — 東京 🙂');
  });
});
