import { readRegularFileTail } from '@statecraft/adapter';
import type { AcceptanceView, AttemptAccount } from '@statecraft/records';
import { requiredNotApplied } from '@statecraft/records';
import type { HumanLines, HumanSpans, Tone } from '../render/human-lines.js';
import { WIDTH, breakToRows, clipped as clip, widthOf } from '../render/terminal-width.js';
import { terminalSafeValue } from '../render/terminal-safe-text.js';
import type { FinalMessage } from './final-message.js';
import { describeErrorCodes, type ProviderError } from './provider-error.js';

const LABEL = 17;
/** How much of a failing check's output the summary shows: its last lines. */
const TAIL_LINES = 3;
const TAIL_BYTES = 2000;

function row(label: string, value: string): string {
  return `  ${label.padEnd(LABEL - 2)}${clip(value, WIDTH - LABEL)}`;
}

const more = (value: string): string => `${' '.repeat(LABEL)}${clip(value, WIDTH - LABEL)}`;

/** The value over at most `most` lines of the value column, the last cut with `…` when it does not fit. */
function wrapped(value: string, most: number): string[] {
  return breakToRows(value, WIDTH - LABEL, most);
}

/**
 * A command to type next, behind `label`: on one line when it fits, else broken before a word with a
 * shell continuation (` \`), so it still pastes as one command; a word longer than a line stays whole.
 */
function command(label: string, words: readonly string[]): string[] {
  const lines: string[] = [];
  let line = `  ${label}: ${words[0] ?? ''}`;
  for (const word of words.slice(1)) {
    if (widthOf(line) + 1 + widthOf(word) + 2 > WIDTH) {
      lines.push(`${line} \\`);
      line = `      ${word}`;
    } else line = `${line} ${word}`;
  }
  return [...lines, line].map((text) => terminalSafeValue(text));
}

/** The tone of an outcome or verdict word: green for the good end, red for a bad one, yellow for one cut short. */
function toneOf(word: string): Tone | undefined {
  if (word === 'completed' || word === 'accepted') return 'good';
  if (['refused', 'failed', 'authority-change', 'dangling'].includes(word)) return 'bad';
  if (['interrupted', 'cancelled', 'no-acceptance', 'not-attempted', 'running'].includes(word)) return 'warn';
  return undefined;
}

function toned(word: string): { text: string; tone?: Tone } {
  const tone = toneOf(word);
  return tone === undefined ? { text: word } : { text: word, tone };
}

function seconds(ms: number): string {
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

function describeTook(account: AttemptAccount): string {
  const parts = [account.durationMs === 'not-recorded' ? 'duration not recorded' : seconds(account.durationMs)];
  parts.push(typeof account.cost === 'number' ? `$${account.cost.toFixed(4)}` : `cost ${account.cost}`);
  if (typeof account.turns === 'number') parts.push(`${account.turns} turn${account.turns === 1 ? '' : 's'}`);
  if (account.timedOut === true) parts.push(`stopped at its ${seconds(account.deadline.milliseconds)} deadline`);
  return parts.join(', ');
}

/** The names of the changed files, the first few, then a count. */
function describeChanged(paths: readonly string[], room = WIDTH - LABEL): string {
  if (paths.length === 0) return 'nothing';
  const shown: string[] = [];
  for (const path of paths) {
    const rest = paths.length - shown.length - 1;
    const tail = rest > 0 ? ` and ${rest} more (${paths.length} files)` : '';
    const next = [...shown, terminalSafeValue(path)].join(', ');
    if (widthOf(next) + tail.length > room && shown.length > 0) break;
    shown.push(terminalSafeValue(path));
  }
  const rest = paths.length - shown.length;
  return `${shown.join(', ')}${rest > 0 ? ` and ${rest} more (${paths.length} files)` : ''}`;
}

function describeChanges(candidate: AttemptAccount['candidate']): string {
  if (candidate === 'not-recorded') return 'no candidate (only a completed attempt has one)';
  if ('notIdentified' in candidate) return `no candidate: ${candidate.notIdentified}`;
  return describeChanged(candidate.changedPaths);
}

/** The provider's own error, over at most two lines, its code and HTTP status after it. */
function providerErrorLines(error: ProviderError | undefined): string[] {
  if (error === undefined || error === 'none') return [];
  const [first = '', ...rest] = wrapped(`${error.text.replace(/\s+/g, ' ')}${describeErrorCodes(error)}`, 2);
  return [row('provider said', first), ...rest.map(more)];
}

function messageLines(message: FinalMessage | undefined, error: ProviderError | undefined): string[] {
  // The provider's error written as the agent's message (Claude Code does): said once, as the error.
  if (message !== undefined && message !== 'none' && error !== undefined && error !== 'none' && message.seq === error.seq) return [];
  if (message === undefined || message === 'none') return [row('said', '(no message)')];
  const lines = message.text.split(/\r\n|[\n\r\u0085\u2028\u2029]/).filter((line) => line.trim() !== '');
  const [first = '', second] = lines;
  const out = [row('said', first)];
  if (second !== undefined) out.push(more(lines.length > 2 || message.cut ? `${second} …` : second));
  return out;
}

type Refusals = AttemptAccount['refusals'];

function refusalLines(count: AttemptAccount['refusalCount'], refusals: Refusals): string[] {
  if (count === 'not-recorded') return [row('refusals', 'not recorded')];
  if (count === 0) return [row('refusals', 'none')];
  const listed = refusals === 'not-recorded' ? [] : refusals.slice(0, 2);
  const words = listed.map((refusal) =>
    'cut' in refusal ? `(a line of ${refusal.cut.lineBytes} bytes) ${refusal.cut.head}` : `${refusal.tool}: ${JSON.stringify(refusal.verbatim)}`,
  );
  if (words.length === 0) return [row('refusals', `${count}`)];
  const head = count > listed.length ? [`${count}; the first ${listed.length}, verbatim:`] : [];
  const [first = '', ...rest] = [...head, ...words.flatMap((word, index) => wrapped(word, index === 0 ? 2 : 1))];
  return [row('refusals', first), ...rest.map(more)];
}

/**
 * Under strict permissions a refused call may be one the operator wants: said how to permit it,
 * since the refusal names the call but not the flag.
 */
function strictHint(account: AttemptAccount): string[] {
  const permissions = account.posture.permissions;
  if (permissions === 'not-recorded' || permissions.mode !== 'strict') return [];
  if (account.refusalCount === 'not-recorded' || account.refusalCount === 0) return [];
  const [first = '', ...rest] = wrapped("strict permits a tool call only where an --allow rule names it, e.g. --allow 'Bash(npm test:*)'", 2);
  return [row('to permit', first), ...rest.map(more)];
}

/** The last lines of a failing check's output, behind `|`: stdout's, or stderr's when stdout said nothing. */
function checkTail(check: AcceptanceView['checks'][number]): string[] {
  for (const path of [check.stdout.path, check.stderr.path]) {
    let text: string;
    try {
      text = readRegularFileTail(path, TAIL_BYTES).toString('utf8');
    } catch {
      continue;
    }
    const lines = text.trimEnd().split(/\r\n|[\n\r\u0085\u2028\u2029]/);
    if (text.trim() === '') continue;
    return lines.slice(-TAIL_LINES).map((line) => `    | ${clip(line, WIDTH - 6)}`);
  }
  return [];
}

/** The verdict, its reason said, and a failed check's last words. */
function acceptanceLines(view: AcceptanceView): HumanLines {
  const [first = '', ...rest] = wrapped(`${view.verdict} — ${view.explanation}`, 2);
  const lines: (string | HumanSpans)[] = [
    [{ text: `  ${'acceptance'.padEnd(LABEL - 2)}` }, toned(view.verdict), { text: first.slice(view.verdict.length) }],
    ...rest.map(more),
  ];
  const failing = view.checks.find((check) => check.timedOut || check.exitCode !== 0);
  if (failing !== undefined && view.verdict !== 'accepted') lines.push(...checkTail(failing));
  // A receipt no longer on the run branch's tip proves less than it did: said beside the verdict.
  if (view.receiptState === 'stale') lines.push([{ text: row('receipt', 'stale: the run branch has moved past the candidate'), tone: 'warn' }]);
  return lines;
}

/** What a person reads first after `run` or `run show`: the outcome and why, and where to look next. */
export function renderAccountSummary(
  account: AttemptAccount & {
    finalMessage?: FinalMessage | undefined;
    providerError?: ProviderError | undefined;
    acceptanceProblem?: { refused: { message: string } } | { failed: { message: string } } | undefined;
  },
  findings: readonly string[],
): HumanLines {
  const id = `${account.runId} attempt ${account.attempt}`;
  const word = account.state === 'concluded' ? (account.outcome === 'not-recorded' ? 'not recorded' : account.outcome) : account.state;
  const cause = account.state === 'concluded' && account.cause !== 'none' && account.cause !== 'not-recorded' ? ` (${account.cause})` : '';
  const state =
    account.state === 'running'
      ? ': no outcome yet, its supervisor is alive'
      : account.state === 'dangling'
        ? ': no outcome; its supervisor stopped before recording one'
        : account.outcomeFrom !== 'not-recorded' && account.outcomeFrom.record === 'acceptance'
          ? ` by its checks (ran: ${account.attemptOutcome})`
          : '';
  const lines: (string | HumanSpans)[] = [
    [{ text: `run ${id}: ` }, toned(word), { text: clip(`${cause}${state}`, WIDTH - `run ${id}: `.length - word.length) }],
  ];
  const claim = account.providerClaim;
  lines.push(
    row(
      "agent's claim",
      claim === 'not-recorded' ? 'not recorded' : `${claim.status}${claim.isError === true ? ' (an error)' : ''} (statecraft reads the events, not the claim)`,
    ),
  );
  lines.push(...providerErrorLines(account.providerError));
  lines.push(...messageLines(account.finalMessage, account.providerError));
  lines.push(row('changed', describeChanges(account.candidate)));
  lines.push(row('took', describeTook(account)));
  lines.push(...refusalLines(account.refusalCount, account.refusals));
  lines.push(...strictHint(account));
  if (account.adapterError !== 'none' && account.adapterError !== 'not-recorded')
    lines.push(row('adapter error', `${account.adapterError.code}: ${account.adapterError.message}`));
  const missing = requiredNotApplied(account.posture.capabilities);
  if (missing.length > 0)
    lines.push([
      { text: `  REQUIRED, NOT APPLIED: ${missing.join(', ')} — the attempt ran without ${missing.length === 1 ? 'it' : 'them'} (a finding)`, tone: 'bad' },
    ]);
  if (account.posture.boundary !== 'not-recorded' && account.posture.boundary.mechanism === 'none')
    lines.push([{ text: '  boundary        NONE: the agent ran with the records in reach', tone: 'warn' }]);
  for (const finding of findings) lines.push([{ text: finding, tone: 'bad' }]);
  if (account.acceptance !== 'not-recorded') lines.push(...acceptanceLines(account.acceptance));
  if (account.acceptanceProblem !== undefined) {
    const problem =
      'refused' in account.acceptanceProblem ? `refused: ${account.acceptanceProblem.refused.message}` : `failed: ${account.acceptanceProblem.failed.message}`;
    lines.push([{ text: `  ${'acceptance'.padEnd(LABEL - 2)}` }, { text: clip(problem, WIDTH - LABEL), tone: 'bad' }]);
  }
  // A run's latest attempt is the default of both verbs: any other is named (a retry, or an attempt started beside others).
  const which = account.attempt === 1 ? [] : ['--attempt', String(account.attempt)];
  lines.push(...command('more', ['statecraft', 'run', 'show', account.target, account.runId, ...which, '--posture']));
  if (account.state === 'concluded' && account.outcome === 'completed' && account.acceptance === 'not-recorded')
    lines.push(...command('judge', ['statecraft', 'accept', account.target, account.runId, ...which]));
  return lines;
}

/** `accept`'s summary: which attempt, the verdict and why, what changed, the receipt, and where to look next. */
export function renderAcceptSummary(view: AcceptanceView & { runId: string; attempt: number; target: string }): HumanLines {
  const changed = view.candidate === 'not-recorded' ? 'no candidate' : describeChanged(view.candidate.changedPaths);
  const passed = view.checks.filter((check) => !check.timedOut && check.exitCode === 0).length;
  return [
    [{ text: `acceptance of run ${view.runId} attempt ${view.attempt}: ` }, toned(view.verdict), { text: ` (${view.reason})` }],
    row('changed', changed),
    row('checks', `${passed} of ${view.checks.length} passed${view.checksNotRun > 0 ? `, ${view.checksNotRun} not run (never a pass)` : ''}`),
    ...acceptanceLines(view),
    row('receipt', view.receiptFile === 'none' ? 'none' : `${view.receiptState}, ${view.receiptFile.path}`),
    ...command('more', ['statecraft', 'run', 'show', view.target, view.runId, '--posture']),
  ];
}
