import type { z } from 'zod';
import type { RunAttemptsAnswerSchema } from '../json-schemas/index.js';
import type { HumanLines } from '../render/human-lines.js';
import { WIDTH, breakToWidth, clipped } from '../render/terminal-width.js';
import { attemptTable, costCell, countCell, durationCell } from '../render/attempt-table.js';
import type { AttemptColumn } from '../render/attempt-table.js';

type Value = z.infer<typeof RunAttemptsAnswerSchema>;
type Row = Value['attempts'][number];

const COLUMNS: readonly AttemptColumn<Row>[] = [
  { title: '#', width: 4, text: (row) => String(row.attempt) },
  { title: 'adapter', width: 12, text: (row) => row.adapter },
  { title: 'outcome', width: 12, text: (row) => (row.problem?.kind === 'refused' || row.problem?.kind === 'failed' ? row.problem.kind : row.outcome) },
  { title: 'verdict', width: 13, text: (row) => (row.verdict === 'not-recorded' ? '-' : row.verdict) },
  { title: 'refusals', width: 9, text: (row) => countCell(row.refusalCount) },
  { title: 'paths', width: 6, text: (row) => countCell(row.changedPaths) },
  { title: 'lines', width: 6, text: (row) => countCell(row.changedLines) },
  { title: 'cost', width: 8, text: (row) => costCell(row.cost) },
  { title: 'time', width: 7, text: (row) => durationCell(row.durationMs) },
];

/** A message over as many lines as it takes, each within WIDTH; the rest indented. */
function wrapped(text: string): string[] {
  return breakToWidth(text, WIDTH, WIDTH - 2).map((piece, index) => (index === 0 ? piece : `  ${piece}`));
}

/**
 * `run --attempts N` for a person: one row per attempt — outcome, verdict, refusals, paths
 * changed, cost, time — the chosen one marked `*`, what stopped any attempt said beneath, and
 * what to do next.
 */
export function renderRunAttempts(value: Value, accept: boolean): HumanLines {
  const chosen = value.selection === 'none' || 'failed' in value.selection ? undefined : value.selection.chosen;
  const lines: string[] = [
    clipped(`run ${value.runId}: ${value.attempts.length} attempts, ${value.parallel} at a time`, WIDTH),
    ...attemptTable(COLUMNS, value.attempts, (row) => row.attempt === chosen),
  ];
  for (const row of value.attempts) {
    if (row.problem !== undefined) lines.push(...wrapped(`attempt ${row.attempt}: ${row.problem.message}`));
  }
  if (value.selection === 'none') {
    lines.push('no attempt was chosen: none has records to rank');
    return lines;
  }
  if ('failed' in value.selection) {
    lines.push(...wrapped(value.selection.failed.message));
    return lines;
  }
  const row = value.attempts.find((attempt) => attempt.attempt === chosen);
  lines.push(clipped(`chosen: attempt ${value.selection.chosen} (ranking rule ${value.selection.rule.version}), on ${row?.branch ?? 'its branch'}`, WIDTH));
  const landable = accept && row?.verdict === 'accepted';
  lines.push(
    landable
      ? clipped(`next: statecraft land ${value.target} ${value.runId}`, WIDTH)
      : clipped(`next: statecraft run show ${value.target} ${value.runId} --attempt ${value.selection.chosen}`, WIDTH),
  );
  return lines;
}
