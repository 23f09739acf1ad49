import { terminalSafeValue } from '../render/terminal-safe-text.js';
import type { HumanLines } from '../render/human-lines.js';
import { WIDTH, breakToWidth } from '../render/terminal-width.js';
import type { RunLogValue } from './run-log.js';
import type { LogEntry } from './run-log-events.js';

/** The column each entry's words wrap under. */
const LABEL = 18;

/**
 * `run log` for a person: the attempt's outcome, its prompt, and one entry per stream line, the
 * agent's words terminal-safe (a line break or escape sequence in them is shown, never obeyed)
 * and wrapped to 80 columns. A stream that is not the one sealed is said to be so, and not shown.
 */
export function renderLog(value: RunLogValue): HumanLines {
  const lines = [
    `run ${value.runId} attempt ${String(value.attempt)}: ${value.outcome}${value.cause === 'none' || value.cause === 'not-recorded' ? '' : ` (${value.cause})`}`,
  ];
  // The prompt line by line, each line's own characters terminal-safe, all under the label's column.
  if (value.prompt.state === 'verified')
    `${value.prompt.text ?? ''}${value.prompt.cut ? ' …' : ''}`.split('\n').forEach((line, index) => lines.push(...wrapped(index === 0 ? 'prompt' : '', line)));
  else lines.push(...wrapped('prompt', `${value.prompt.state}: ${value.prompt.path} is not the prompt the intent sealed; not shown`));
  if (value.stream.state !== 'verified') {
    lines.push(...wrapped('stream', `${value.stream.state}: ${value.stream.message ?? value.stream.path}`));
    lines.push('  next: statecraft doctor names every kept file that is not as sealed');
    return lines;
  }
  lines.push(...wrapped('stream', `${value.stream.path} (verified against its record)`));
  for (const entry of value.events) lines.push(...wrapped(labelOf(entry), wordsOf(entry)));
  if (value.omitted > 0) lines.push(`  … and ${String(value.omitted)} more lines (the kept stream holds them)`);
  return lines;
}

function labelOf(entry: LogEntry): string {
  const seq = entry.seq === 'not-recorded' ? '-' : String(entry.seq);
  const what = entry.type === 'progress' ? (entry.kind ?? 'progress') : entry.type === 'refusal' ? 'REFUSAL' : entry.type;
  return `#${seq} ${terminalSafeValue(what)}`;
}

function wordsOf(entry: LogEntry): string {
  const tools = entry.tools !== undefined && entry.tools.length > 0 ? `${entry.tools.join(', ')}: ` : '';
  const command = entry.command === undefined ? '' : `$ ${entry.command}`;
  const text = entry.text === undefined || entry.text === entry.command ? '' : entry.text;
  const words = [command, text].filter((part) => part !== '').join('  ');
  return terminalSafeValue(`${tools}${words}${entry.cut ? ' …' : ''}`);
}

/** A label and its words, the words wrapped under the label's column; each piece already terminal-safe. */
function wrapped(label: string, words: string): string[] {
  const head = `  ${label.length > LABEL - 1 ? label.slice(0, LABEL - 1) : label}`.padEnd(LABEL + 2);
  return breakToWidth(words, WIDTH - LABEL - 2).map((piece, index) => `${index === 0 ? head : ' '.repeat(LABEL + 2)}${piece}`);
}
