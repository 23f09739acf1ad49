import { createHash } from 'node:crypto';
import { escapeHtml } from './escape-html.js';
import { PAGE_SCRIPT } from './page-script.js';
import { PAGE_STYLE } from './page-style.js';

function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * The page's policy: nothing may be fetched or connected to, no frame, form or base; only its own
 * stylesheet and script run, each named by its hash, so even markup that slipped past escaping
 * could run no script and load nothing.
 */
function contentSecurityPolicy(): string {
  return [
    "default-src 'none'",
    `script-src ${cspHash(PAGE_SCRIPT)}`,
    `style-src ${cspHash(PAGE_STYLE)}`,
    "img-src 'none'",
    "connect-src 'none'",
    "font-src 'none'",
    "media-src 'none'",
    "object-src 'none'",
    "frame-src 'none'",
    "worker-src 'none'",
    "manifest-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/**
 * One whole HTML document, as its UTF-8 bytes: the policy first in the head, before anything it
 * governs. `body` is already escaped HTML, in parts: each is encoded on its own, so a part of
 * ASCII (a kept file's base64) is never copied into a string of two-byte characters, the form a
 * string takes once one character of another part (`·`, `…`) is past Latin-1.
 */
export function pageDocument(title: string, body: readonly (string | Buffer)[]): Buffer {
  const head = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy())}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
`;
  const tail = `
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
  return Buffer.concat([head, ...body, tail].map((part) => (typeof part === 'string' ? Buffer.from(part) : part)));
}
