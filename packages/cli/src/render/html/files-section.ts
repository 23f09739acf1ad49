import { escapeHtml } from './escape-html.js';
import type { EmbeddedFile } from './embedded-file.js';
import { fileTextHtml } from './file-text.js';

/** The mark a file has before (or without) the page's script: what the renderer itself can say. */
function initialMark(file: EmbeddedFile): { state: string; words: string } {
  if (file.reading.kind === 'unreadable') return { state: 'missing', words: 'missing when the page was made' };
  if (file.reading.cut) {
    const whole = file.reading.sha256 === file.recorded.sha256 && file.reading.size === file.recorded.bytes;
    return {
      state: 'cut',
      words: `cut at ${String(file.reading.bytes.length)} of ${String(file.reading.size)} bytes: its digest cannot be recomputed here (when the page was made, the whole file ${whole ? 'matched' : 'did not match'} its record)`,
    };
  }
  return { state: 'pending', words: 'not recomputed (this page recomputes it with its script)' };
}

function row(file: EmbeddedFile, index: number): string {
  const mark = initialMark(file);
  const id = `kept-${String(index)}`;
  const data =
    file.reading.kind === 'read' && !file.reading.cut
      ? ` data-embedded="${id}" data-sha256="${escapeHtml(file.recorded.sha256)}" data-bytes="${String(file.recorded.bytes)}" data-cut="false"`
      : file.reading.kind === 'read'
        ? ` data-embedded="${id}" data-cut="true"`
        : '';
  return `<tr class="kept-file" data-name="${escapeHtml(file.name)}" data-state="${mark.state}"${data}>
<td>${escapeHtml(file.name)}</td>
<td><span class="mono">${escapeHtml(file.path)}</span><br><span class="digest mono">record: ${String(file.recorded.bytes)} bytes, sha256 ${escapeHtml(file.recorded.sha256)}</span>
<details class="screen-only"><summary>show</summary>${fileTextHtml(file)}</details></td>
<td><span class="mark ${mark.state}">${escapeHtml(mark.words)}</span></td>
</tr>`;
}

/**
 * Kept bytes travel as base64 in a block of a type no browser runs: no byte of them can end the
 * block (`</script>` has no base64 spelling) or be parsed as markup. Made as bytes: the base64 of
 * a 4 MiB file is never copied into the page's text.
 */
function dataBlock(file: EmbeddedFile, index: number): Buffer[] {
  if (file.reading.kind !== 'read') return [];
  return [
    Buffer.from(`<script type="application/octet-stream" id="kept-${String(index)}">`),
    Buffer.from(file.reading.bytes.toString('base64'), 'latin1'),
    Buffer.from('</script>\n'),
  ];
}

/** Each kept file the page carries, with its digest recomputed in the browser against the record's: the section's parts, in order. */
export function filesSection(files: readonly EmbeddedFile[]): (string | Buffer)[] {
  return [
    `<section id="kept-files"><h2>Kept files</h2>
<p>Recomputed in this browser: <span id="digest-summary" class="mark pending">not recomputed (this page recomputes them with its script)</span></p>
<table><thead><tr><th>file</th><th>path and record</th><th>SHA-256 here</th></tr></thead><tbody>
${files.map(row).join('\n')}
</tbody></table>
`,
    ...files.flatMap(dataBlock),
    '</section>',
  ];
}
