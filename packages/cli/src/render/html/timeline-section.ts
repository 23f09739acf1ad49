import type { RunLogValue } from '../../commands/run-log.js';
import { escapeHtml } from './escape-html.js';

type Entry = RunLogValue['events'][number];

/** How many events the page lists, and how many characters of their words: a long stream must not make a long page. */
export const TIMELINE_ENTRIES = 5000;
export const TIMELINE_WORDS = 2 * 1024 * 1024;

/** The first entries, within both bounds. */
function shownEntries(events: readonly Entry[]): Entry[] {
  const shown: Entry[] = [];
  let words = 0;
  for (const entry of events) {
    words += (entry.text?.length ?? 0) + (entry.command?.length ?? 0);
    if (shown.length >= TIMELINE_ENTRIES || (words > TIMELINE_WORDS && shown.length > 0)) break;
    shown.push(entry);
  }
  return shown;
}

/** What an entry is, in a word a reviewer reads: a message, a tool call (naming the tools), a refusal, the result. */
function whatOf(entry: Entry): string {
  if (entry.type === 'progress') {
    if (entry.kind === 'message') return 'message';
    const tools = entry.tools ?? [];
    return entry.kind === 'tool-use' ? `tool call${tools.length > 0 ? `: ${tools.join(', ')}` : ''}` : (entry.kind ?? 'progress');
  }
  if (entry.type === 'refusal') return `refused: ${(entry.tools ?? []).join(', ')}`;
  return entry.type;
}

function entryItem(entry: Entry): string {
  const refusal = entry.type === 'refusal';
  const words = [
    entry.command === undefined ? '' : `<pre class="command">$ ${escapeHtml(entry.command)}</pre>`,
    entry.text === undefined ? '' : `<p class="words">${escapeHtml(entry.text)}${entry.cut ? ' …' : ''}</p>`,
  ].join('');
  return `<li class="event ${escapeHtml(entry.type)}${refusal ? ' refusal' : ''}" data-type="${escapeHtml(entry.type)}">
<span class="where">line ${String(entry.line)}${entry.seq === 'not-recorded' ? '' : ` · seq ${String(entry.seq)}`}</span>
<span class="what">${refusal ? '<span class="refused">REFUSED</span> ' : ''}${escapeHtml(whatOf(entry))}</span>
<div>${words}</div>
</li>`;
}

/**
 * The agent's messages and tool calls in order, each refusal marked; none of it unless the stream is
 * the one sealed. `log` holds only the events the page may list (TIMELINE_ENTRIES); the rest are
 * counted, with their refusals, unless the reading stopped where the listing does (`read`, an
 * export's page): then what was not read is said by its bytes, and the refusals in it are not
 * counted. In parts, each entry already bytes: thousands of entries joined into one string would
 * be held again, at twice the size once one character is past Latin-1 (page-document.ts).
 */
export function timelineSection(log: RunLogValue, read: 'whole' | { listedBytes: number; streamBytes: number } = 'whole'): (string | Buffer)[] {
  const head = '<h2>Timeline</h2>';
  const prompt =
    log.prompt.state === 'verified' && log.prompt.text !== undefined
      ? `<details class="prompt"><summary>the prompt</summary><pre>${escapeHtml(log.prompt.text)}${log.prompt.cut ? '\n…' : ''}</pre></details>`
      : `<p class="note">the prompt is ${escapeHtml(log.prompt.state)}: not shown</p>`;
  if (log.stream.state !== 'verified') {
    const why = log.stream.message ?? `the stream is ${log.stream.state}`;
    return [`<section id="timeline">${head}${prompt}<p class="findings">${escapeHtml(why)}: the timeline is not shown.</p></section>`];
  }
  const shown = shownEntries(log.events);
  const rest = log.events.slice(shown.length);
  const refusals = rest.filter((entry) => entry.type === 'refusal').length + log.omittedRefusals;
  const more = rest.length + log.omitted;
  const omitted =
    read !== 'whole' && read.listedBytes < read.streamBytes
      ? `<p class="note" id="timeline-omitted">and the rest of the stream, not read into lines for this page: the lines listed are its first ${String(read.listedBytes)} of ${String(read.streamBytes)} bytes, and the refusals after them are not counted here (the outcome card gives the record's count); statecraft verify of this bundle reads every line, statecraft run log lists them, and the kept stream has them all</p>`
      : more > 0
        ? `<p class="note" id="timeline-omitted">and ${String(more)} more lines, not listed here${refusals > 0 ? `, ${String(refusals)} of them refusals` : ''}: statecraft run log lists them, and the kept stream has them all</p>`
        : '';
  return [
    `<section id="timeline">${head}${prompt}
<ol class="timeline">
`,
    ...shown.map((entry, index) => Buffer.from(`${index === 0 ? '' : '\n'}${entryItem(entry)}`)),
    `
</ol>${omitted}</section>`,
  ];
}
