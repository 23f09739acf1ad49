import { clipped, padded } from './terminal-width.js';

/** A column of an attempts table: its title, its width with the gap after it, and a row's text for it. */
export interface AttemptColumn<Row> {
  readonly title: string;
  readonly width: number;
  readonly text: (row: Row) => string;
}

/** A count, or `-` where it was not recorded. */
export function countCell(count: number | 'not-recorded'): string {
  return count === 'not-recorded' ? '-' : String(count);
}

/** A cost in dollars, or what stands for it (`unknown`, `-` where not recorded). */
export function costCell(cost: number | string): string {
  if (typeof cost === 'number') return `$${cost.toFixed(4)}`;
  return cost === 'not-recorded' ? '-' : cost;
}

/** A duration as a person reads it: `12.3s`, `4m05s`, `2h10m`; `-` where not recorded. */
export function durationCell(milliseconds: number | 'not-recorded'): string {
  if (milliseconds === 'not-recorded') return '-';
  const seconds = milliseconds / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60
    ? `${minutes}m${String(Math.round(seconds % 60)).padStart(2, '0')}s`
    : `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

/**
 * The header and one line per row, the chosen row marked `*`; each cell cut to its column, so a
 * line is never wider than the widths' sum and two.
 */
export function attemptTable<Row>(columns: readonly AttemptColumn<Row>[], rows: readonly Row[], chosen: (row: Row) => boolean): string[] {
  const line = (mark: string, cells: readonly string[]): string =>
    `${mark} ${cells.map((cell, index) => padded(clipped(cell, (columns[index]?.width ?? 1) - 1), columns[index]?.width ?? 1)).join('')}`.trimEnd();
  return [
    line(
      ' ',
      columns.map((column) => column.title),
    ),
    ...rows.map((row) =>
      line(
        chosen(row) ? '*' : ' ',
        columns.map((column) => column.text(row)),
      ),
    ),
  ];
}
