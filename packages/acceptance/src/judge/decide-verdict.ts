import type { AcceptanceReason, AcceptanceVerdict, Candidate, CheckRun } from '@statecraft/records';
import { VERDICT_OF_REASON } from '@statecraft/records';
import type { LinkOutside } from './links-outside-candidate.js';
import type { SuiteEnd } from './run-suite.js';

export interface Decision {
  verdict: AcceptanceVerdict;
  reason: AcceptanceReason;
  explanation: string;
}

export function decided(reason: AcceptanceReason, explanation: string): Decision {
  return { verdict: VERDICT_OF_REASON[reason], reason, explanation };
}

/** R13.1: an attempt that did not complete is not judged; the reason names its outcome. */
export function notAttempted(outcome: 'refused' | 'interrupted' | 'failed' | 'cancelled', refusalCount: number): Decision {
  if (outcome === 'refused')
    return decided('attempt-refused', `the attempt was refused (${refusalCount} refusal${refusalCount === 1 ? '' : 's'}); only a completed attempt is judged`);
  return decided(`attempt-${outcome}`, `the attempt ended ${outcome}; only a completed attempt is judged`);
}

/**
 * A completed attempt whose candidate holds exactly the tree its workspace started with is not
 * judged (R13.2, R13.6): a receipt would bind this attempt and its adapter to work it did not do,
 * and a do-nothing retry would judge again a tree already judged as an earlier attempt's (R13.4).
 * The explanation names whose the tree is, and how to judge it there.
 */
export function changedNothing(candidate: Candidate, run: { target: string; runId: string }): Decision {
  const commit = candidate.commit.slice(0, 12);
  const whose =
    candidate.madeBy === 'statecraft'
      ? `commits only the changes left uncommitted in its workspace before it started`
      : candidate.earlier === 'base'
        ? `is the base commit`
        : typeof candidate.earlier === 'object'
          ? `is attempt ${candidate.earlier.candidateOf}'s candidate: judge it as that attempt's (statecraft accept ${run.target} ${run.runId} --attempt ${candidate.earlier.candidateOf})`
          : `holds the tree its workspace started with`;
  return decided(
    'attempt-changed-nothing',
    `the attempt changed nothing since it started: its candidate ${commit} ${whose}; only what an attempt changed is judged`,
  );
}

/** R13.5: a changed authority set; whatever the suite says or would say, a person decides. */
function authorityTouched(touched: readonly string[]): Decision {
  return decided(
    'authority-touched',
    `the candidate changed the authority set (${touched.join(', ')}): it is not accepted on the strength of a suite it could have rewritten; a person decides`,
  );
}

/** How many paths an explanation names; the rest are counted. */
const PATHS_NAMED = 20;

/**
 * R13.5: the candidate left the authority set alone, but git checked some of it out as other bytes
 * than the base holds (the repository's attributes or configuration convert them): no check is run
 * on them, and a person decides.
 */
export function checkedOutOtherwise(paths: readonly string[], checks: number): Decision {
  const named = paths.slice(0, PATHS_NAMED);
  if (paths.length > PATHS_NAMED) named.push(`and ${paths.length - PATHS_NAMED} more`);
  return decided(
    'authority-touched',
    `git checked out the authority set's ${named.join(', ')} as other bytes than the base holds: the repository's git attributes or configuration ` +
      `(info/attributes, core.attributesFile, core.autocrlf, core.eol, a filter) convert them; ${checks} check${checks === 1 ? '' : 's'} did not run; a person decides`,
  );
}

/** How many links an explanation names; the rest are counted. */
const LINKS_NAMED = 20;

/**
 * The verdict before the suite runs, when there is one (R13.3): a candidate holding links that
 * leave its tree fails without its suite, since a check would read through them bytes that are
 * not the candidate's — unless it changed the authority set too, which a person decides first.
 * So does one holding statecraft's state directory: landed, it would put there what statecraft
 * then makes its workspaces in and removes (a link there leads that removal anywhere).
 */
export function decideBeforeSuite(input: {
  touched: readonly string[];
  links: readonly LinkOutside[];
  /** The candidate's changed paths at or under statecraft's state directory (`.statecraft/state`). */
  stateEntries: readonly string[];
  checks: number;
}): Decision | undefined {
  const { touched, links, stateEntries, checks } = input;
  if (links.length === 0 && stateEntries.length === 0) return undefined;
  if (touched.length > 0) return authorityTouched(touched);
  if (stateEntries.length > 0) {
    const named = stateEntries.slice(0, LINKS_NAMED);
    if (stateEntries.length > LINKS_NAMED) named.push(`and ${stateEntries.length - LINKS_NAMED} more`);
    return decided(
      'state-directory-in-candidate',
      `the candidate holds statecraft's state directory, where statecraft makes and removes the agents' workspaces and the checks' worktrees in the checkout it lands in: ${named.join(', ')}; ${checks} check${checks === 1 ? '' : 's'} did not run`,
    );
  }
  const named = links.slice(0, LINKS_NAMED).map((link) => `${link.path} -> ${link.target}`);
  if (links.length > LINKS_NAMED) named.push(`and ${links.length - LINKS_NAMED} more`);
  return decided(
    'link-outside-candidate',
    `the candidate holds symbolic links whose targets leave its tree, so a check would read bytes it does not hold: ${named.join(', ')}; ${checks} check${checks === 1 ? '' : 's'} did not run`,
  );
}

/**
 * The verdict once the suite has run (R13.4, R13.5), in this order: a changed authority set
 * overrides however the suite ended (a person decides); then a check that did not run to its end
 * is no acceptance; then a moved HEAD or a dirty tree means the judged bytes were not the
 * candidate's (interrupted), named by the check after which it was read; then a non-zero exit
 * fails; only then is the candidate accepted.
 */
export function decideAfterSuite(input: {
  end: SuiteEnd;
  checks: readonly CheckRun[];
  checksNotRun: number;
  touched: readonly string[];
  after: { headMoved: boolean; head: string; dirtyPaths: string[] } | { failed: string };
}): Decision {
  const { end, checksNotRun, touched, after } = input;
  if (touched.length > 0) return authorityTouched(touched);
  const notRun = `${checksNotRun} check${checksNotRun === 1 ? '' : 's'} did not run`;
  if (end.kind === 'not-started') return decided('check-not-started', `\`${end.command}\` could not start (${end.message}); ${notRun}`);
  if (end.kind === 'timed-out') {
    return end.by === 'suite'
      ? decided('suite-deadline', `\`${end.command}\` was killed at the suite's deadline; ${notRun}`)
      : decided('check-timed-out', `\`${end.command}\` was killed at its deadline, with its descendants; ${notRun}`);
  }
  if (end.kind === 'output-bound') {
    return decided(
      'check-output-bound',
      `\`${end.command}\` was stopped, with its descendants, once ${end.path} reached the keep bound of ${end.bytes} bytes (STATECRAFT_KEEP_BOUND); ${notRun}`,
    );
  }
  if (end.kind === 'suite-deadline') return decided('suite-deadline', `the suite's deadline passed; ${notRun}`);
  if (end.kind === 'cancelled') return decided('cancelled', `the operator interrupted the suite; ${notRun}`);
  // Handled before a verdict is asked for (judge-attempt.ts); never a pass should it reach here.
  if (end.kind === 'output-not-kept') return decided('check-not-started', `the output of \`${end.command}\` could not be kept (${end.message}); ${notRun}`);
  // The worktree is read after every check that passes (run-suite.ts), so a change is the last started check's doing.
  const by = input.checks.at(-1)?.command;
  const changer = by === undefined ? 'the suite' : `\`${by}\``;
  const andNotRun = checksNotRun > 0 ? `; ${notRun}` : '';
  if ('failed' in after) return decided('candidate-unavailable', `the worktree could not be read after ${changer} (${after.failed})`);
  if (after.headMoved) return decided('head-moved', `${changer} moved HEAD of the candidate's worktree to ${after.head}${andNotRun}`);
  if (after.dirtyPaths.length > 0) return decided('tree-dirty', `${changer} left the candidate's tree dirty: ${after.dirtyPaths.join(', ')}${andNotRun}`);
  // Never a pass: run-suite.ts ends the suite so only on a reading that is not the candidate's.
  if (end.kind === 'tree-changed') return decided('tree-dirty', `the worktree read after \`${end.command}\` was not the candidate; ${notRun}`);
  if (end.kind === 'failed') {
    return decided(
      'check-failed',
      `\`${end.command}\` exited ${end.exitCode === null ? 'by a signal' : end.exitCode}${checksNotRun > 0 ? `; ${notRun} after it` : ''}`,
    );
  }
  return decided('every-check-passed', `every check exited 0 (${input.checks.length}), HEAD unchanged, tree clean`);
}
