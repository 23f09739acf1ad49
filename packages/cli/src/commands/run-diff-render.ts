import { terminalSafeValue } from '../render/terminal-safe-text.js';
import type { HumanLines } from '../render/human-lines.js';
import { fitToWidth } from '../render/terminal-width.js';
import type { RunDiffValue } from './run-diff.js';

const short = (commit: string): string => commit.slice(0, 12);

/**
 * `run diff` for a person: which commits, each changed path on a line of its own (its name's
 * control characters and line breaks shown as escapes, never obeyed: the name is the agent's),
 * then git's patch, whose lines the whole rendering's terminal-safe pass covers.
 */
export function renderDiff(value: RunDiffValue): HumanLines {
  const head = `run ${value.runId} attempt ${String(value.attempt)}`;
  if (value.candidate.state !== 'identified')
    return [`${head}: no candidate to compare (${value.candidate.state})`, `  ${terminalSafeValue(value.candidate.reason)}`];
  const lines = [
    head,
    `  base ${short(value.baseCommit)} .. candidate ${short(value.candidate.commit)} (made by ${value.candidate.madeBy})`,
    `${String(value.files.length)} path${value.files.length === 1 ? '' : 's'} changed`,
  ];
  for (const file of value.files) {
    const counts = file.additions === 'binary' ? 'binary' : `+${String(file.additions)} -${String(file.deletions)}`;
    lines.push(`  ${file.status.padEnd(2)} ${counts.padEnd(12)} ${terminalSafeValue(file.path)}`);
  }
  // The rows fit the terminal; the patch is the agent's text, shown line for line as git writes it.
  return [...fitToWidth(lines, 18), ...(value.patch === '' ? [] : ['', ...value.patch.replace(/\n$/, '').split('\n')])];
}
