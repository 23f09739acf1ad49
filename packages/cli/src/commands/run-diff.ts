import type { z } from 'zod';
import { runGitForReading } from '@statecraft/run';
import type { AttemptAccount, OpenedTargetRecords } from '@statecraft/records';
import type { RunDiffAnswerSchema } from '../json-schemas/index.js';
import type { Answer } from '../answer.js';
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { attemptOfRun } from './attempt-of-run.js';
import { renderDiff } from './run-diff-render.js';

export type RunDiffValue = z.infer<typeof RunDiffAnswerSchema>;

/**
 * What every diff here passes git: no external diff program and no textconv filter (either is a
 * command the repository's configuration or attributes could name, run as the operator), no
 * colour, no rename detection (each path is said as added or deleted, as the candidate holds it).
 */
const DIFF_OPTIONS = ['--no-ext-diff', '--no-textconv', '--no-color', '--no-renames'];

/**
 * `statecraft run diff [target] <run>`: the attempt's candidate against the base commit its intent
 * recorded, read from the repository with git (no program it names is run). Exit 0 with a
 * candidate; 1 when the attempt has none (not completed, or not identified), said with why.
 */
export async function runDiff(options: {
  home: string;
  target: string;
  runId: string;
  attempt?: number;
  /** The target's records as the caller opened them: not opened and verified again. */
  records?: OpenedTargetRecords;
}): Promise<Answer<RunDiffValue>> {
  const account = await attemptOfRun(options);
  const head = { target: account.target, runId: account.runId, attempt: account.attempt, baseCommit: account.baseCommit };
  const candidate = account.candidate;
  if (candidate === 'not-recorded' || 'notIdentified' in candidate) {
    const value: RunDiffValue = { ...head, candidate: noCandidate(account), files: [], patch: '' };
    return { value, exitCode: EXIT.finding, human: renderDiff };
  }
  const range = [account.baseCommit, candidate.commit];
  const [numbers, statuses, patch] = await Promise.all([
    gitOrRefuse(account.target, ['diff', ...DIFF_OPTIONS, '--numstat', '-z', ...range, '--']),
    gitOrRefuse(account.target, ['diff', ...DIFF_OPTIONS, '--name-status', '-z', ...range, '--']),
    gitOrRefuse(account.target, ['diff', ...DIFF_OPTIONS, ...range, '--']),
  ]);
  const value: RunDiffValue = {
    ...head,
    candidate: { state: 'identified', commit: candidate.commit, madeBy: candidate.madeBy },
    files: filesOf(numbers, statuses),
    patch: patch.toString('utf8'),
  };
  return { value, exitCode: EXIT.ok, human: renderDiff };
}

function noCandidate(account: AttemptAccount): Extract<RunDiffValue['candidate'], { reason: string }> {
  const candidate = account.candidate;
  if (candidate !== 'not-recorded' && 'notIdentified' in candidate) return { state: 'not-identified', reason: candidate.notIdentified };
  const outcome = account.state === 'concluded' ? `its outcome is ${account.outcome}` : `it is ${account.state}`;
  return { state: 'not-recorded', reason: `only a completed attempt has a candidate, and ${outcome}` };
}

/** git's answer, or a refusal (exit 2) saying what git said: a candidate no longer in the repository, say. */
async function gitOrRefuse(repository: string, args: readonly string[]): Promise<Buffer> {
  const answer = await runGitForReading(repository, args);
  if (!answer.ok) throw new CliError(`refused: git could not compare the candidate in ${repository}: ${answer.message}`, EXIT.refused);
  return Buffer.from(answer.stdout);
}

/** The paths of `--numstat -z` (`added\tdeleted\tpath\0`) with the status letters of `--name-status -z` (`S\0path\0`). */
function filesOf(numbers: Buffer, statuses: Buffer): RunDiffValue['files'] {
  const statusOf = new Map<string, string>();
  const parts = statuses.toString('utf8').split('\0');
  for (let index = 0; index + 1 < parts.length; index += 2) statusOf.set(parts[index + 1] ?? '', parts[index] ?? '');
  const count = (text: string | undefined) => (text === undefined || text === '-' ? ('binary' as const) : Number(text));
  return numbers
    .toString('utf8')
    .split('\0')
    .filter((entry) => entry !== '')
    .map((entry) => {
      const [additions, deletions, ...name] = entry.split('\t');
      const path = name.join('\t');
      return { path, status: statusOf.get(path) ?? '?', additions: count(additions), deletions: count(deletions) };
    });
}
