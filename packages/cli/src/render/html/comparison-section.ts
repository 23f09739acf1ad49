import type { RankKey } from '@statecraft/records';
import { escapeHtml } from './escape-html.js';
import type { ReviewerEvidence } from './reviewer-evidence.js';
import { toneOf } from './summary-section.js';

function change(key: RankKey): string {
  const { paths, lines } = key.change;
  if (paths === 'not-recorded') return 'not recorded';
  return `${String(paths)} path${paths === 1 ? '' : 's'}${lines === 'not-recorded' ? '' : `, ${String(lines)} lines`}`;
}

/**
 * The run's attempts as the ranking rule ordered them, each with the recorded key it was ranked
 * on and a link to its own page's name; the chosen one marked. Absent for a run with no selection.
 */
export function comparisonSection(evidence: ReviewerEvidence): string {
  const selection = evidence.shown.selection;
  if (selection === undefined || selection === 'none') return '';
  const rows = selection.ranked.map((entry) => {
    const chosen = entry.runId === selection.chosen.runId && entry.attempt === selection.chosen.attempt;
    const shown = entry.runId === evidence.shown.runId && entry.attempt === evidence.shown.attempt;
    const { key } = entry;
    return `<tr class="ranked${chosen ? ' chosen' : ''}${shown ? ' shown' : ''}" data-attempt="${String(entry.attempt)}"><td>${chosen ? 'chosen' : ''}</td><td>${String(entry.attempt)}</td><td class="${toneOf(key.verdict)}">${escapeHtml(key.verdict)}</td><td>${key.refusals === 'not-recorded' ? 'not recorded' : String(key.refusals)}</td><td>${escapeHtml(change(key))}</td><td>${typeof key.cost === 'number' ? `$${key.cost.toFixed(4)}` : 'unknown'}</td><td>${key.durationMs === 'not-recorded' ? 'not recorded' : `${(key.durationMs / 1000).toFixed(1)} s`}</td></tr>`;
  });
  const now =
    selection.rankedNow === 'agrees'
      ? '<p class="note" id="recomputed">Ranked again from the records as they stand, the rule gives the same order.</p>'
      : selection.rankedNow === 'other-rule'
        ? '<p class="note" id="recomputed">Made by a rule this statecraft does not know: not recomputed.</p>'
        : `<p class="note warn" id="recomputed">Ranked again from the records as they stand, the rule chooses attempt ${String(selection.rankedNow.chosen.attempt)}: an attempt was judged after the selection was made.</p>`;
  return `<section id="comparison"><h2>Attempts compared</h2>
<p class="note">Ranked by rule ${String(selection.rule.version)} on recorded evidence only: the verdict, then fewer refusals, the smaller change, the lower cost, the shorter time, the lower attempt number. The agent's claims take no part.</p>
<table><thead><tr><th></th><th>attempt</th><th>verdict</th><th>refusals</th><th>change</th><th>cost</th><th>time</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>${now}</section>`;
}
