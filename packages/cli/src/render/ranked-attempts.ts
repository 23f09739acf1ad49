import type { RankKey, RankedAttempt } from '@statecraft/records';
import type { SelectionView } from '../json-schemas/index.js';
import type { HumanLines, HumanSpans } from './human-lines.js';

/** How one key reads in the table's columns; every row fits 80 columns. */
function cells(key: RankKey): string[] {
  const { paths, lines } = key.change;
  const change = paths === 'not-recorded' ? '-' : `${paths} path${paths === 1 ? '' : 's'}${lines === 'not-recorded' ? '' : ` +-${lines}`}`;
  return [
    key.verdict,
    key.refusals === 'not-recorded' ? '-' : String(key.refusals),
    change,
    typeof key.cost === 'number' ? `$${key.cost.toFixed(4)}` : 'unknown',
    key.durationMs === 'not-recorded' ? '-' : `${(key.durationMs / 1000).toFixed(1)} s`,
  ];
}

const WIDTHS = [5, 17, 9, 16, 11] as const;

/**
 * The attempts of a run best first, as the ranking rule ordered them, the chosen one marked `*`:
 * attempt, verdict, refusals, change (paths, lines added and removed), cost, duration.
 */
function renderRankedAttempts(ranked: readonly RankedAttempt[], chosen: { runId: string; attempt: number }): HumanLines {
  const pad = (values: readonly string[]): string =>
    values
      .map((value, index) => value.padEnd(WIDTHS[index] ?? 0))
      .join(' ')
      .trimEnd();
  const several = new Set(ranked.map((entry) => entry.runId)).size > 1;
  return [
    `  ${pad(['#', 'verdict', 'refusals', 'change', 'cost', 'time'])}`,
    ...ranked.map((entry) => {
      const mark = entry.runId === chosen.runId && entry.attempt === chosen.attempt ? '* ' : '  ';
      const name = several ? `${entry.runId.slice(-6)}/${String(entry.attempt)}` : String(entry.attempt);
      return `${mark}${pad([name, ...cells(entry.key)])}`;
    }),
  ];
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
