import type { z } from 'zod';
import type { Acceptance } from '@statecraft/acceptance';
import { foldAttempts, rankKeyOf, type AttemptAccount, type ChainEntry, type SerialAppender } from '@statecraft/records';
import { launchRun, parallelBound, planRun, readUncommittedPaths, type Launch, type RunAttempt } from '@statecraft/run';
import type { RunPlan } from '@statecraft/run';
import type { RunAttemptRowSchema, RunAttemptsAnswerSchema } from '../json-schemas/index.js';
import type { Answer } from '../answer.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { STATECRAFT_VERSION } from '../statecraft-version.js';
import { writeHumanLines } from '../render/human-lines.js';
import { answerOf, planRequestOf, uncommittedNote, type RunOptions, type RunValue } from './run.js';
import { appendRunSelection } from './append-run-selection.js';
import { renderRunAttempts } from './run-attempts-render.js';

export type RunAttemptsValue = z.infer<typeof RunAttemptsAnswerSchema>;
type Row = z.infer<typeof RunAttemptRowSchema>;

/** A run of several attempts: the adapters they go round, how many, how many at once (at most the machine's bound). */
export interface ManyAttempts {
  adapters: readonly RunOptions['adapter'][];
  attempts: number;
  parallel: number | undefined;
  /** Told a line as each attempt ends (for a person; the table is the answer). */
  progress?: (line: string) => void;
}

/**
 * `statecraft run --attempts N` (N ≥ 2): each adapter planned once (a refusal of any refuses the
 * run, nothing appended), the attempts given the adapters round robin, launched under one lock
 * (launchRun), each judged once it ends with --accept, and, once every attempt has ended, one
 * selection record appended; the answer is the table. Exit 0 when the chosen attempt completed
 * (accepted, with --accept); 1 otherwise; 2 refused before any attempt; 4 an i/o failure.
 */
export async function runAttempts(options: RunOptions, many: ManyAttempts): Promise<Answer<RunValue>> {
  const plans: RunPlan[] = [];
  for (const adapter of many.adapters) {
    // Every attempt starts from the first plan's base commit, resolved once.
    const base = plans[0]?.baseCommit;
    const planning = await planRun(planRequestOf({ ...options, adapter, ...(base === undefined ? {} : { base }) }));
    if (planning.kind !== 'planned') return answerOf(planning);
    plans.push(planning.plan);
  }
  const [first] = plans;
  if (first === undefined) throw new Error('a run of several attempts needs an adapter');
  const uncommitted = await readUncommittedPaths(first.target.path);
  if (uncommitted !== undefined && uncommitted.count > 0) writeHumanLines(process.stderr, uncommittedNote(uncommitted, options.base ?? 'HEAD'));
  const parallel = Math.min(many.parallel ?? many.attempts, many.attempts, parallelBound());
  const attemptPlans = Array.from({ length: many.attempts }, (_, index) => plans[index % plans.length] as RunPlan);
  const ran = await launchRun<Acceptance | undefined, { accounts: AttemptAccount[]; selection: RunAttemptsValue['selection'] }>({
    plans: attemptPlans,
    parallel,
    hooks: () => (options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    afterAttempt: async (launch, chain) => {
      const judged = await judge(options, launch, chain);
      many.progress?.(progressLine(launch, judged, many.attempts));
      return judged;
    },
    beforeRelease: async (attempts, chain, runId) => {
      const accounts = foldAttempts(first.paths.chain, first.paths.directory, entriesOf(attempts), 'none');
      return { accounts, selection: await appendRunSelection(chain, runId, accounts) };
    },
  });
  if (ran.kind !== 'ran') return answerOf(ran);
  const rows = ran.attempts.map((attempt) => rowOf(attempt, ran.final.accounts));
  const value: RunAttemptsValue = {
    runId: ran.runId,
    target: first.target.path,
    chain: first.paths.chain,
    parallel,
    attempts: rows,
    selection: ran.final.selection,
    reclaimedLock: ran.reclaimedLock,
  };
  return { value, exitCode: exitCodeOf(value, options.accept !== undefined), human: () => renderRunAttempts(value, options.accept !== undefined) };
}

/** What one ended attempt came to, in a line. */
function progressLine(launch: Launch, judged: Acceptance | undefined, of: number): string {
  if (launch.kind !== 'concluded') return `an attempt of ${of} was ${launch.kind}: ${launch.message}`;
  const { record } = launch.outcome;
  const verdict = judged?.kind === 'judged' ? `, ${judged.entry.record.verdict}` : '';
  return `attempt ${record.attempt} of ${of}: ${record.outcome}${record.cause === 'none' ? '' : ` (${record.cause})`}${verdict}`;
}

/** With --accept, a concluded attempt judged through the run's chain (acceptance takes no lock of its own then). */
async function judge(options: RunOptions, launch: Launch, chain: SerialAppender): Promise<Acceptance | undefined> {
  if (options.accept === undefined || launch.kind !== 'concluded') return undefined;
  const { acceptAttempt } = await import('@statecraft/acceptance');
  return acceptAttempt({
    home: options.home,
    target: launch.intent.record.target.path,
    runId: launch.intent.record.runId,
    attempt: launch.intent.record.attempt,
    checkDeadlineMs: options.accept.checkDeadlineMs,
    suiteDeadlineMs: options.accept.suiteDeadlineMs,
    source: options.source,
    boundary: options.boundary ?? { kind: 'bwrap' },
    statecraftVersion: STATECRAFT_VERSION,
    held: chain,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
}

/** The records this run appended, in chain order: each attempt's intent and outcome, and its acceptance. */
function entriesOf(attempts: readonly RunAttempt<Acceptance | undefined>[]): ChainEntry[] {
  const entries: ChainEntry[] = [];
  for (const { launch, after } of attempts) {
    if (launch.kind !== 'concluded') continue;
    entries.push({ record: launch.intent.record, digest: launch.intent.digest, lineNumber: launch.intent.record.seq + 1 });
    entries.push({ record: launch.outcome.record, digest: launch.outcome.digest, lineNumber: launch.outcome.record.seq + 1 });
    if (after?.kind === 'judged') entries.push(after.entry);
  }
  return entries.sort((a, b) => a.lineNumber - b.lineNumber);
}

/** One row: from the attempt's account when its records were appended; what stopped it otherwise, said. */
function rowOf(attempt: RunAttempt<Acceptance | undefined>, accounts: readonly AttemptAccount[]): Row {
  const account = accounts.find((candidate) => candidate.attempt === attempt.number);
  const adapter = attempt.plan.adapter.name;
  const problem = problemOf(attempt);
  if (account === undefined) {
    return {
      attempt: attempt.number,
      adapter,
      workspace: 'not-recorded',
      branch: 'not-recorded',
      outcome: 'not-recorded',
      cause: 'not-recorded',
      verdict: 'not-recorded',
      refusalCount: 'not-recorded',
      changedPaths: 'not-recorded',
      changedLines: 'not-recorded',
      cost: 'not-recorded',
      durationMs: 'not-recorded',
      ...(problem === undefined ? {} : { problem }),
    };
  }
  const key = rankKeyOf(account);
  return {
    attempt: attempt.number,
    adapter,
    workspace: account.workspace,
    branch: account.branch,
    outcome: account.attemptOutcome,
    cause: account.cause,
    verdict: account.acceptance === 'not-recorded' ? 'not-recorded' : account.acceptance.verdict,
    refusalCount: account.refusalCount,
    changedPaths: key.change.paths,
    changedLines: key.change.lines,
    cost: account.cost,
    durationMs: account.durationMs,
    ...(problem === undefined ? {} : { problem }),
  };
}

function problemOf({ launch, after }: RunAttempt<Acceptance | undefined>): Row['problem'] {
  if (launch.kind === 'refused') return { kind: 'refused', message: launch.message };
  if (launch.kind === 'failed') return { kind: 'failed', message: launch.message, path: launch.path };
  if (after?.kind === 'refused') return { kind: 'acceptance-refused', message: after.message };
  if (after?.kind === 'failed') return { kind: 'acceptance-failed', message: after.message, path: after.path };
  return undefined;
}

/** 4 when any record or kept file could not be written; else the chosen attempt's: 0 completed (accepted), 1 otherwise; 2 when none ran. */
function exitCodeOf(value: RunAttemptsValue, accept: boolean): ExitCode {
  if (value.attempts.some((row) => row.problem?.kind === 'failed' || row.problem?.kind === 'acceptance-failed')) return EXIT.failed;
  if (value.selection === 'none') return value.attempts.every((row) => row.problem?.kind === 'refused') ? EXIT.refused : EXIT.finding;
  if ('failed' in value.selection) return EXIT.failed;
  const chosen = value.selection.chosen;
  const row = value.attempts.find((attempt) => attempt.attempt === chosen);
  const good = accept ? row?.verdict === 'accepted' : row?.outcome === 'completed';
  return good ? EXIT.ok : EXIT.finding;
}
