import { escapeHtml } from './escape-html.js';
import type { EmbeddedFile } from './embedded-file.js';

/** How much of one kept file is shown as text; the page still carries (and digests) up to its embed bound. */
const SHOWN_BOUND = 256 * 1024;

/** A kept file's text as the page shows it: escaped, its start when long, and said when it is not whole. */
export function fileTextHtml(file: EmbeddedFile): string {
  if (file.reading.kind === 'unreadable') return `<p class="findings">${escapeHtml(file.reading.message)}</p>`;
  const { bytes, size } = file.reading;
  if (size === 0) return '<p class="note">(empty)</p>';
  const shown = bytes.subarray(0, SHOWN_BOUND);
  const note = shown.length < size ? `<p class="note">the first ${String(shown.length)} of ${String(size)} bytes shown</p>` : '';
  return `<pre>${escapeHtml(shown.toString('utf8'))}</pre>${note}`;
}
