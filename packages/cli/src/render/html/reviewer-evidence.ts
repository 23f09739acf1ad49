import type { z } from 'zod';
import type { RunShowAnswerSchema } from '../../json-schemas/index.js';
import { asCliError } from '../../errors.js';
import type { ExitCode } from '../../exit-codes.js';
import { runShow } from '../../commands/run-show.js';
import { runLog, type RunLogValue } from '../../commands/run-log.js';
import { runDiff, type RunDiffValue } from '../../commands/run-diff.js';
import { embedKeptFile, EMBED_BOUND, type EmbeddedFile } from './embedded-file.js';
import { readSignatureStates, type SignatureStates } from './signature-states.js';
import { TIMELINE_ENTRIES } from './timeline-section.js';

export type ShownAccount = z.infer<typeof RunShowAnswerSchema>;

/** Everything one reviewer's page shows, read once: the values `run show`, `run log` and `run diff` compute, and the kept files. */
export interface ReviewerEvidence {
  shown: ShownAccount;
  /** `run show`'s exit code for the attempt: 0 only when it completed and its evidence holds. */
  exitCode: ExitCode;
  log: RunLogValue;
  /** The candidate against its base, or why git could not compare them. */
  diff: RunDiffValue | { unavailable: string };
  files: EmbeddedFile[];
  signatures: SignatureStates;
}

export interface ReviewerPageOptions {
  home: string;
  target: string;
  runId: string;
  /** Default: the run's latest attempt. */
  attempt?: number;
  /** How much of each kept file the page carries (default 4 MiB). */
  embedBound?: number;
}

/** Reads the attempt as `run show` does, then its timeline, its diff and its kept files, all of the same attempt. */
export async function gatherReviewerEvidence(options: ReviewerPageOptions): Promise<ReviewerEvidence> {
  const shown = await runShow({ home: options.home, target: options.target, runId: options.runId, ...attemptOf(options) });
  const account = shown.value;
  // The attempt `run show` chose, by number: a later attempt appended meanwhile is not mixed in.
  const same = { home: options.home, target: options.target, runId: account.runId, attempt: account.attempt };
  // Only what the page lists is kept: a long stream's events, held whole, would cost its size again in memory.
  const log = (await runLog({ ...same, entries: TIMELINE_ENTRIES })).value;
  let diff: ReviewerEvidence['diff'];
  try {
    diff = (await runDiff(same)).value;
  } catch (error) {
    const known = asCliError(error);
    if (known === undefined) throw error;
    diff = { unavailable: known.message };
  }
  return {
    shown: account,
    exitCode: shown.exitCode,
    log,
    diff,
    files: keptFiles(account, options.embedBound ?? EMBED_BOUND),
    signatures: await readSignatureStates(options.home, account),
  };
}

function attemptOf(options: ReviewerPageOptions): { attempt?: number } {
  return options.attempt === undefined ? {} : { attempt: options.attempt };
}

/** Each file the attempt keeps that the page shows, in the order a reviewer reads them. */
function keptFiles(account: ShownAccount, bound: number): EmbeddedFile[] {
  const files: EmbeddedFile[] = [];
  const { request, prompt, stream, stderr, result } = account.artifacts;
  for (const [name, artifact] of [
    ['request', request],
    ['prompt', prompt],
    ['stream', stream],
    ['stderr', stderr],
    ['result', result],
  ] as const) {
    if (artifact !== 'not-recorded') files.push(embedKeptFile(name, artifact, bound));
  }
  const acceptance = account.acceptance;
  if (acceptance !== 'not-recorded') {
    acceptance.checks.forEach((check, index) => {
      files.push(embedKeptFile(`check ${String(index + 1)} stdout`, check.stdout, bound));
      files.push(embedKeptFile(`check ${String(index + 1)} stderr`, check.stderr, bound));
    });
    if (acceptance.receiptFile !== 'none') files.push(embedKeptFile('receipt', acceptance.receiptFile, bound));
  }
  return files;
}
