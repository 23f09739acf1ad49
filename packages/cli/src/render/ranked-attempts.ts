import type { RankedAttempt } from '@statecraft/records';
import type { SelectionView } from '../json-schemas/index.js';
import { attemptTable, costCell, countCell, durationCell } from './attempt-table.js';
import type { AttemptColumn } from './attempt-table.js';
import type { HumanLines, HumanSpans } from './human-lines.js';

/** The columns after the attempt's name: what the ranking rule compares, in its order. */
const KEY_COLUMNS: readonly AttemptColumn<RankedAttempt>[] = [
  { title: 'verdict', width: 13, text: (entry) => entry.key.verdict },
  { title: 'refusals', width: 9, text: (entry) => countCell(entry.key.refusals) },
  { title: 'paths', width: 6, text: (entry) => countCell(entry.key.change.paths) },
  { title: 'lines', width: 6, text: (entry) => countCell(entry.key.change.lines) },
  { title: 'cost', width: 8, text: (entry) => costCell(entry.key.cost) },
  { title: 'time', width: 7, text: (entry) => durationCell(entry.key.durationMs) },
];

/**
 * The attempts of a run best first, as the ranking rule ordered them, the chosen one marked `*`;
 * attempts of several runs (a collected group) are named by run and attempt.
 */
function renderRankedAttempts(ranked: readonly RankedAttempt[], chosen: { runId: string; attempt: number }): string[] {
  const several = new Set(ranked.map((entry) => entry.runId)).size > 1;
  const name: AttemptColumn<RankedAttempt> = several
    ? { title: '#', width: 11, text: (entry) => `${entry.runId.slice(-6)}/${String(entry.attempt)}` }
    : { title: '#', width: 4, text: (entry) => String(entry.attempt) };
  return attemptTable([name, ...KEY_COLUMNS], ranked, (entry) => entry.runId === chosen.runId && entry.attempt === chosen.attempt);
}

/** The run's selection under an attempt's summary: the table, and the rule applied again now where it orders them otherwise. */
export function renderSelection(selection: SelectionView | 'none' | undefined): HumanLines {
  if (selection === undefined || selection === 'none') return [];
  const lines: (string | HumanSpans)[] = [
    `attempts of the run, best first (ranking rule ${String(selection.rule.version)}; * chosen):`,
    ...renderRankedAttempts(selection.ranked, selection.chosen),
  ];
  if (selection.rankedNow === 'other-rule') lines.push(`ranked by a rule this statecraft does not know: not recomputed`);
  else if (selection.rankedNow !== 'agrees') {
    const now = selection.rankedNow.chosen;
    lines.push(
      `ranked again from the records as they stand now, the rule chooses attempt ${String(now.attempt)}`,
      '(an attempt was judged after the selection was made)',
    );
  }
  return lines;
}
