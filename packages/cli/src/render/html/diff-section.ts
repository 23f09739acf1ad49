import type { RunDiffValue } from '../../commands/run-diff.js';
import { escapeHtml } from './escape-html.js';
import type { ReviewerEvidence } from './reviewer-evidence.js';

/** How much of a patch the page shows: the files list always, the patch's first bytes. */
const PATCH_BOUND = 2 * 1024 * 1024;

function classOf(line: string): string {
  if (line.startsWith('diff --git') || line.startsWith('+++ ') || line.startsWith('--- ') || line.startsWith('index ')) return 'head';
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  return '';
}

function patchHtml(patch: string): string {
  const cut = patch.length > PATCH_BOUND;
  const shown = cut ? patch.slice(0, PATCH_BOUND) : patch;
  const lines = shown.split('\n').map((line) => {
    const name = classOf(line);
    return name === '' ? escapeHtml(line) : `<span class="${name}">${escapeHtml(line)}</span>`;
  });
  const note = cut
    ? `<p class="note">the patch is ${String(patch.length)} characters; the first ${String(PATCH_BOUND)} are shown (statecraft run diff shows it whole)</p>`
    : '';
  return `<pre class="diff">${lines.join('\n')}</pre>${note}`;
}

function filesTable(files: RunDiffValue['files']): string {
  const rows = files.map(
    (file) =>
      `<tr><td class="mono">${escapeHtml(file.path)}</td><td>${escapeHtml(file.status)}</td><td>+${String(file.additions)}</td><td>-${String(file.deletions)}</td></tr>`,
  );
  return `<table class="changed"><thead><tr><th>path</th><th>status</th><th>added</th><th>deleted</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** The candidate against its base, as `run diff` reads it with git. */
export function diffSection(diff: ReviewerEvidence['diff']): string {
  const head = '<h2>Candidate diff</h2>';
  if ('unavailable' in diff) return `<section id="diff">${head}<p class="findings">${escapeHtml(diff.unavailable)}</p></section>`;
  if (diff.candidate.state !== 'identified')
    return `<section id="diff">${head}<p class="note">no candidate: ${escapeHtml(diff.candidate.reason)}</p></section>`;
  const intro = `<p class="sub">base ${escapeHtml(diff.baseCommit)} → candidate ${escapeHtml(diff.candidate.commit)} (${escapeHtml(diff.candidate.madeBy)})</p>`;
  if (diff.files.length === 0) return `<section id="diff">${head}${intro}<p class="note">the candidate changes nothing</p></section>`;
  return `<section id="diff">${head}${intro}${filesTable(diff.files)}${patchHtml(diff.patch)}</section>`;
}
