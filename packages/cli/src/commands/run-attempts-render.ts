import type { z } from 'zod';
import type { RunAttemptsAnswerSchema } from '../json-schemas/index.js';
import type { HumanLines } from '../render/human-lines.js';
import { terminalSafeValue } from '../render/terminal-safe-text.js';

type Value = z.infer<typeof RunAttemptsAnswerSchema>;
type Row = Value['attempts'][number];

/** Every line fits this many columns. */
const WIDTH = 80;

/** The columns: a title, a width, and the row's text for it. */
const COLUMNS: readonly { title: string; width: number; text: (row: Row) => string }[] = [
  { title: '#', width: 4, text: (row) => String(row.attempt) },
  { title: 'adapter', width: 12, text: (row) => row.adapter },
  { title: 'outcome', width: 12, text: (row) => (row.problem?.kind === 'refused' || row.problem?.kind === 'failed' ? row.problem.kind : row.outcome) },
  { title: 'verdict', width: 13, text: (row) => (row.verdict === 'not-recorded' ? '-' : row.verdict) },
  { title: 'refusals', width: 9, text: (row) => counted(row.refusalCount) },
  { title: 'paths', width: 6, text: (row) => counted(row.changedPaths) },
  { title: 'lines', width: 6, text: (row) => counted(row.changedLines) },
  { title: 'cost', width: 8, text: (row) => describeCost(row.cost) },
  { title: 'time', width: 7, text: (row) => (row.durationMs === 'not-recorded' ? '-' : describeDuration(row.durationMs)) },
];

function counted(count: number | 'not-recorded'): string {
  return count === 'not-recorded' ? '-' : String(count);
}

function describeCost(cost: Row['cost']): string {
  if (typeof cost === 'number') return `$${cost.toFixed(4)}`;
  return cost === 'not-recorded' ? '-' : cost;
}

function describeDuration(milliseconds: number): string {
  const seconds = milliseconds / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60
    ? `${minutes}m${String(Math.round(seconds % 60)).padStart(2, '0')}s`
    : `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

/** The value escaped as the writer escapes it, cut to `room` columns. */
function clip(text: string, room: number): string {
  const safe = terminalSafeValue(text);
  return safe.length <= room ? safe : `${safe.slice(0, Math.max(0, room - 1))}…`;
}

/** A message over as many lines as it takes, each within WIDTH, cut at spaces where there are some; the rest indented. */
function wrapped(text: string): string[] {
  const lines: string[] = [];
  let rest = terminalSafeValue(text);
  let room = WIDTH;
  while (rest.length > room) {
    const space = rest.lastIndexOf(' ', room);
    const end = space > room / 2 ? space : room;
    lines.push(`${lines.length === 0 ? '' : '  '}${rest.slice(0, end)}`);
    rest = rest.slice(end).trimStart();
    room = WIDTH - 2;
  }
  lines.push(`${lines.length === 0 ? '' : '  '}${rest}`);
  return lines;
}

function line(mark: string, cells: readonly string[]): string {
  return `${mark} ${cells.map((cell, index) => clip(cell, (COLUMNS[index]?.width ?? 1) - 1).padEnd(COLUMNS[index]?.width ?? 1)).join('')}`.trimEnd();
}

/**
 * `run --attempts N` for a person: one row per attempt — outcome, verdict, refusals, paths
 * changed, cost, time — the chosen one marked `*`, what stopped any attempt said beneath, and
 * what to do next.
 */
export function renderRunAttempts(value: Value, accept: boolean): HumanLines {
  const chosen = value.selection === 'none' || 'failed' in value.selection ? undefined : value.selection.chosen;
  const lines: string[] = [
    clip(`run ${value.runId}: ${value.attempts.length} attempts, ${value.parallel} at a time`, WIDTH),
    line(
      ' ',
      COLUMNS.map((column) => column.title),
    ),
    ...value.attempts.map((row) =>
      line(
        row.attempt === chosen ? '*' : ' ',
        COLUMNS.map((column) => column.text(row)),
      ),
    ),
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
  lines.push(clip(`chosen: attempt ${value.selection.chosen} (ranking rule ${value.selection.rule.version}), on ${row?.branch ?? 'its branch'}`, WIDTH));
  const landable = accept && row?.verdict === 'accepted';
  lines.push(
    landable
      ? clip(`next: statecraft land ${value.target} ${value.runId}`, WIDTH)
      : clip(`next: statecraft run show ${value.target} ${value.runId} --attempt ${value.selection.chosen}`, WIDTH),
  );
  return lines;
}
