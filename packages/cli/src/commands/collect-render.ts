import type { z } from 'zod';
import type { CollectAnswerSchema } from '../json-schemas/index.js';
import type { HumanLines } from '../render/human-lines.js';
import { clipped } from '../render/terminal-width.js';
import { wrap } from './verify-render.js';

type CollectAnswer = z.infer<typeof CollectAnswerSchema>;
type Key = CollectAnswer['ranked'][number]['key'];

/** The ranking table, best first, then each bundle refused and why, in 80 columns. */
export function renderCollection(value: CollectAnswer): HumanLines {
  const chosen = value.ranked.find((attempt) => attempt.chosen);
  return [
    ...wrap(`group ${value.group}: ${plural(value.ranked.length, 'attempt')} ranked, ${plural(value.refused.length, 'bundle')} refused`, '', '  '),
    `  base ${value.baseCommit.slice(0, 12)}, rule version ${value.rule.version}, chain line ${value.record.line}`,
    '',
    `${cellsOf(['#', 'index', 'verdict', 'refusals', 'paths', 'lines', 'cost', 'time'])} bundle`,
    ...value.ranked.map((attempt, place) => row(place + 1, attempt.index, attempt.key, attempt.bundle)),
    ...(value.refused.length === 0 ? [] : ['', 'refused:']),
    ...value.refused.flatMap((refused) => [...wrap(refused.bundle, '  ', '    '), ...wrap(refused.why, '    ', '    ')]),
    ...(chosen === undefined
      ? []
      : [
          '',
          `chosen: run ${chosen.runId} attempt ${chosen.attempt} (index ${chosen.index})`,
          ...wrap(`next: statecraft land ${value.target} --group ${value.group} --bundle ${chosen.bundle} --trust <key>`, '  ', '      '),
        ]),
  ];
}

/** The columns' widths, one space between: with a bundle's name of at most 15, a row fits 80 columns. */
const WIDTHS = [3, 5, -15, 8, 5, 5, -8, -8];

function cellsOf(cells: readonly string[]): string {
  return cells.map((cell, at) => ((WIDTHS[at] ?? 0) < 0 ? cell.padEnd(-(WIDTHS[at] ?? 0)) : cell.padStart(WIDTHS[at] ?? 0))).join(' ');
}

function row(place: number, index: number, key: Key, bundle: string): string {
  const cost = typeof key.cost === 'number' ? `$${key.cost.toFixed(2)}` : '-';
  const time = typeof key.durationMs === 'number' ? `${(key.durationMs / 1000).toFixed(1)}s` : '-';
  const cells = [String(place), String(index), key.verdict, known(key.refusals), known(key.change.paths), known(key.change.lines), cost, time];
  const name = bundle.split('/').at(-1) ?? bundle;
  return `${cellsOf(cells)} ${clipped(name, 15, 'end')}`;
}

function known(value: number | string): string {
  return typeof value === 'number' ? String(value) : '-';
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
