import type { z } from 'zod';
import type { CollectAnswerSchema } from '../json-schemas/index.js';
import type { HumanLines } from '../render/human-lines.js';

type CollectAnswer = z.infer<typeof CollectAnswerSchema>;
type Key = CollectAnswer['ranked'][number]['key'];

/** The ranking table, best first, then each bundle refused and why, in 80 columns. */
export function renderCollection(value: CollectAnswer): HumanLines {
  const chosen = value.ranked.find((attempt) => attempt.chosen);
  return [
    `group ${value.group}: ${value.ranked.length} attempt${value.ranked.length === 1 ? '' : 's'} ranked, ${value.refused.length} bundle${value.refused.length === 1 ? '' : 's'} refused`,
    `  base ${value.baseCommit.slice(0, 12)}, rule version ${value.rule.version}, chain line ${value.record.line}`,
    '',
    '  #  index  verdict         refusals  paths  lines  cost     time     bundle',
    ...value.ranked.map((attempt, place) => row(place + 1, attempt.index, attempt.key, attempt.bundle)),
    ...(value.refused.length === 0 ? [] : ['', 'refused:']),
    ...value.refused.flatMap((refused) => [`  ${refused.bundle}`, `    ${refused.why}`]),
    ...(chosen === undefined
      ? []
      : [
          '',
          `chosen: run ${chosen.runId} attempt ${chosen.attempt} (index ${chosen.index})`,
          `  next: statecraft land ${value.target} --group ${value.group} --bundle ${chosen.bundle}`,
        ]),
  ];
}

function row(place: number, index: number, key: Key, bundle: string): string {
  const cost = typeof key.cost === 'number' ? `$${key.cost.toFixed(2)}` : '-';
  const time = typeof key.durationMs === 'number' ? `${(key.durationMs / 1000).toFixed(1)}s` : '-';
  const cells = [
    String(place).padStart(3),
    String(index).padStart(5),
    key.verdict.padEnd(15),
    known(key.refusals).padStart(8),
    known(key.change.paths).padStart(5),
    known(key.change.lines).padStart(5),
    cost.padEnd(8),
    time.padEnd(8),
  ];
  const name = bundle.split('/').at(-1) ?? bundle;
  return `${cells.join('  ')} ${name.length > 14 ? `…${name.slice(-13)}` : name}`;
}

function known(value: number | string): string {
  return typeof value === 'number' ? String(value) : '-';
}
