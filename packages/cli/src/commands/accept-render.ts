import type { AcceptanceView } from '@statecraft/records';
import { readRegularFileTail } from '@statecraft/adapter';
import type { HumanLines } from '../render/human-lines.js';
import { breakToWidth } from '../render/terminal-width.js';
import { describeCandidateChanges, describeCandidateMaker } from '../render/describe-candidate.js';

/** How many bytes of a failing check's output are shown at the end (the whole file is kept). */
const TAIL_BYTES = 2000;

/** What an output line may take of an 80-column row behind its `    | `. */
const GUTTERED = 74;

/**
 * One line of a check's output behind `    | `, as the terminal gets it (escaped), in pieces of a
 * row's width: padded to the edge, the output cannot run on into what looks like a row of
 * statecraft's own.
 */
function behindGutter(line: string): string[] {
  return breakToWidth(line, GUTTERED).map((piece) => `    | ${piece}`);
}

/**
 * The human rendering of an acceptance: the same value `--json` prints (R11). Paths are the agent's
 * to name (a file called `x\nacceptance: accepted …`), and so are a check's command and output and
 * what an explanation quotes of them: each stays on the one line it belongs to (human-lines.ts).
 */
export function renderAcceptance(view: AcceptanceView & { runId?: string; attempt?: number }, options: { tails: boolean } = { tails: false }): HumanLines {
  const of = view.runId === undefined ? '' : ` of run ${view.runId} attempt ${String(view.attempt)}`;
  const lines = [`acceptance${of}: ${view.verdict} (${view.reason}) — ${view.explanation}`];
  if (view.candidate !== 'not-recorded') {
    const c = view.candidate;
    lines.push(
      `  candidate       ${c.commit.slice(0, 12)} (tree ${c.tree.slice(0, 12)}, ${describeCandidateMaker(c)}; ${describeCandidateChanges(c)}); changed from the base: ${c.changedPaths.length === 0 ? 'nothing' : safeList(c.changedPaths)}`,
    );
    if (c.madeBy === 'statecraft') lines.push(`                  ${c.ignored.note}${c.ignored.count > 0 ? ` (${c.ignored.count} ignored)` : ''}`);
  }
  if (view.suite !== 'none' && view.suite !== 'not-recorded')
    lines.push(`  suite           ${view.suite.commands.length} check(s) from ${view.suite.path} at the base ${view.suite.baseCommit.slice(0, 12)}`);
  for (const check of view.checks) {
    const ended = check.timedOut ? 'killed at its deadline' : check.exitCode === null ? 'ended by a signal' : `exit ${check.exitCode}`;
    lines.push(`  check           ${check.command}${check.shell ? ' (through /bin/sh -c)' : ''}: ${ended}, ${check.durationMs} ms`);
  }
  if (view.boundary !== 'not-recorded') lines.push(`  boundary        ${describeCheckBoundary(view.boundary)}`);
  if (view.checksNotRun > 0) lines.push(`  not run         ${view.checksNotRun} check(s): never a pass`);
  if (view.authority.touched.length > 0) lines.push(`  authority       touched: ${safeList(view.authority.touched)}`);
  if (view.policyDigest !== 'not-recorded') lines.push(`  policy          ${view.policyDigest}`);
  lines.push(`  receipt         ${view.receiptFile === 'none' ? 'none' : `${view.receiptFile.path} (${view.receiptState})`}`);
  if (view.receiptSignature !== undefined) lines.push(`  signature       ${view.receiptSignature.path}`);
  if (options.tails) {
    const failing = view.checks.find((check) => check.timedOut || check.exitCode !== 0);
    if (failing !== undefined) lines.push(...tailOf('stdout', failing.stdout.path), ...tailOf('stderr', failing.stderr.path));
  }
  return lines;
}

function safeList(paths: readonly string[]): string {
  return paths.join(', ');
}

/** The boundary the checks ran under (R12): bwrap with its probe, or none and who chose it. */
function describeCheckBoundary(boundary: Exclude<AcceptanceView['boundary'], 'not-recorded'>): string {
  if (boundary.mechanism === 'none') return `none (${boundary.chosenBy}): the checks could reach the records`;
  const held = boundary.probe.filter((check) => check.held).length;
  return `bwrap ${boundary.version}, the checks ran inside it (probe ${held}/${boundary.probe.length} held)`;
}

function tailOf(name: string, path: string): string[] {
  let text: string;
  try {
    text = readRegularFileTail(path, TAIL_BYTES).toString('utf8');
  } catch {
    return [`  ${name} of the failing check: unreadable (${path})`];
  }
  if (text.trim() === '') return [];
  return [
    `  ${name} of the failing check (${path}), its tail:`,
    // Split at every line break a terminal would obey, so each line of the output is shown behind its `|`.
    ...text
      .trimEnd()
      .split(/\r\n|[\n\r\u0085\u2028\u2029]/)
      .flatMap((line) => behindGutter(line)),
  ];
}
