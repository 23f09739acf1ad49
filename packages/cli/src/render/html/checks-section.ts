import { escapeHtml } from './escape-html.js';
import { fileTextHtml } from './file-text.js';
import type { ReviewerEvidence } from './reviewer-evidence.js';
import { toneOf } from './summary-section.js';

function output(evidence: ReviewerEvidence, name: string): string {
  const file = evidence.files.find((candidate) => candidate.name === name);
  return file === undefined ? '<p class="note">not kept</p>' : fileTextHtml(file);
}

/** Each check the acceptance ran: its command, how it ended, and what it printed. */
export function checksSection(evidence: ReviewerEvidence): string {
  const head = '<h2>Checks</h2>';
  const acceptance = evidence.shown.acceptance;
  if (acceptance === 'not-recorded') return `<section id="checks">${head}<p class="note">never judged: no check has run</p></section>`;
  if (acceptance.checks.length === 0) return `<section id="checks">${head}<p class="note">no check ran (${escapeHtml(acceptance.explanation)})</p></section>`;
  const checks = acceptance.checks.map((check, index) => {
    const number = String(index + 1);
    const ended = check.timedOut ? 'timed out' : check.exitCode === null ? 'killed' : `exit ${String(check.exitCode)}`;
    const tone = check.exitCode === 0 && !check.timedOut ? toneOf('passed') : toneOf('failed');
    return `<article class="check" id="check-${number}">
<h3 class="check-head">check ${number}: <code>${escapeHtml(check.command)}</code></h3>
<dl class="facts"><dt>ended</dt><dd class="exit ${tone}">${escapeHtml(ended)}</dd><dt>exit code</dt><dd class="exit-code">${check.exitCode === null ? 'none' : String(check.exitCode)}</dd><dt>took</dt><dd>${String(check.durationMs)} ms</dd></dl>
<h3>stdout</h3>${output(evidence, `check ${number} stdout`)}
<h3>stderr</h3>${output(evidence, `check ${number} stderr`)}
</article>`;
  });
  const notRun = acceptance.checksNotRun > 0 ? `<p class="note">${String(acceptance.checksNotRun)} checks not run</p>` : '';
  return `<section id="checks">${head}${checks.join('\n')}${notRun}</section>`;
}
