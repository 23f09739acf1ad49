import type { z } from 'zod';
import {
  compareAttemptRecordsWithKeptFiles,
  entriesByDigest,
  examineAttemptEvidence,
  findAttemptRecordFindings,
  readWorkspaceFreshness,
  landingsIn,
  foldAttempts,
  openTargetRecords,
  openTargetSummaries,
  startAttemptSummaries,
  type KeptStreamConsumer,
  type OpenedTargetRecords,
} from '@statecraft/records';
import { requiredNotApplied } from '@statecraft/records';
import type { RunListAnswerSchema, RunShowAnswerSchema } from '../json-schemas/index.js';
import type { Answer } from '../answer.js';
import { CliError, IoFailure } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { accountFindings, renderAccount, renderList } from './run-render.js';
import { renderAccountSummary } from './run-summary-render.js';
import { readStreamEnding } from './provider-error.js';
import { AttemptPartsAhead } from './attempt-parts-ahead.js';
import { withReceiptState } from './receipt-state.js';
import { readRunSelection } from './run-selection.js';
import { renderSelection } from '../render/ranked-attempts.js';

/** Opens the target's chain read-only; a broken link refuses (exit 2) naming the record (R8.4). */
export async function openRecordsOrRefuse(home: string, target: string): Promise<OpenedTargetRecords> {
  const records = await openTargetRecords(home, target);
  if (records.kind === 'refused')
    throw new CliError(`refused: ${records.message}`, EXIT.refused, { hint: 'statecraft doctor reports every chain; nothing was repaired' });
  if (records.kind === 'failed') throw new IoFailure(records.path, records.message);
  if (records.kind === 'unknown-target') throw unknownTarget(records.message);
  return records;
}

/** The target's records, opened here unless the caller opened them already, with every attempt folded. */
async function openOrRefuse(home: string, target: string, opened?: OpenedTargetRecords) {
  const records = opened ?? (await openRecordsOrRefuse(home, target));
  return { ...records, accounts: foldAttempts(records.chain, records.targetDirectory, records.entries, records.live) };
}

/** A target that is no repository and has no records: refused (exit 2), not read as "0 attempts". */
function unknownTarget(message: string): CliError {
  return new CliError(`refused: ${message}`, EXIT.refused, {
    hint: "give the path of the repository's checkout; statecraft doctor lists every target with records",
  });
}

/**
 * `statecraft run list <target>`: every attempt in the target's chain, folded read-only. A
 * dangling intent shows as `dangling`, never completed (R8.3). Exit 0: the list was read.
 */
export async function runList(options: { home: string; target: string; json?: boolean }): Promise<Answer<z.infer<typeof RunListAnswerSchema>>> {
  // Summarized as the chain is verified, so no record is kept beyond its attempt's summary; for
  // --json, rendered as it is summarized too (attempt-parts-ahead.ts).
  const ahead = options.json === true ? new AttemptPartsAhead() : undefined;
  const summaries = ahead?.summaries ?? startAttemptSummaries();
  const records = await openTargetSummaries(options.home, options.target, (entry) => {
    summaries.add(entry);
    ahead?.afterEntry();
  });
  if (records.kind === 'refused')
    throw new CliError(`refused: ${records.message}`, EXIT.refused, { hint: 'statecraft doctor reports every chain; nothing was repaired' });
  if (records.kind === 'failed') throw new IoFailure(records.path, records.message);
  if (records.kind === 'unknown-target') throw unknownTarget(records.message);
  const value: z.infer<typeof RunListAnswerSchema> = {
    target: records.target,
    chain: records.chain,
    tornTail: records.torn,
    attempts: ahead === undefined ? summaries.finish(records.live) : ahead.finish(records.live),
  };
  return { value, exitCode: EXIT.ok, human: renderList };
}

/**
 * `statecraft run show <target> <run> [--attempt n]`: one attempt's account, the same value
 * `run --json` printed, with its kept files checked against the chain. Default: the run's latest
 * attempt. Exit 0 `completed` with every kept file as sealed, the outcome its stream gives,
 * every record agreeing with the kept files it copies, naming its attempt's own files, and every
 * acceptance of it one a judgement wrote, with the receipt and check outputs it sealed; 1 otherwise.
 */
export async function runShow(options: {
  home: string;
  target: string;
  runId: string;
  attempt?: number;
  /** `--posture`: the whole account, posture, residuals, coverage and every check of the records; else the summary. */
  posture?: boolean;
  /** Another reader of the one pass over the attempt's kept stream (the reviewer's page). */
  streamAlsoTo?: KeptStreamConsumer;
  /** false: the stream is digested, not classified again (an export's page, decision 0351). */
  classifyStream?: boolean;
  /** The target's records as the caller opened them (openRecordsOrRefuse): the page's readers share one verified reading. */
  records?: OpenedTargetRecords;
}): Promise<Answer<z.infer<typeof RunShowAnswerSchema>>> {
  const opened = await openOrRefuse(options.home, options.target, options.records);
  const ofRun = opened.accounts.filter((account) => account.runId === options.runId);
  if (ofRun.length === 0)
    throw new CliError(`refused: run ${options.runId} has no record for ${opened.target}`, EXIT.refused, { hint: `statecraft run list ${opened.target}` });
  const selection = readRunSelection(opened.entries, ofRun, options.runId);
  // A run whose attempts were ranked shows the chosen one unless another is asked for.
  const shownAttempt = options.attempt ?? (selection === 'none' ? undefined : selection.chosen.attempt);
  const account = shownAttempt === undefined ? ofRun.at(-1) : ofRun.find((candidate) => candidate.attempt === shownAttempt);
  if (account === undefined) {
    throw new CliError(
      `refused: run ${options.runId} has no attempt ${String(options.attempt)} (attempts: ${ofRun.map((a) => a.attempt).join(', ')})`,
      EXIT.refused,
    );
  }
  // The files beside the chain are re-digested against the digests the chain holds (R8.4), the
  // outcome is classified again from the kept stream (R8.2), and what the records copy of the kept
  // request and result is compared with them, as doctor compares it: a chain edited and relinked
  // with its files left alone verifies link by link, and shows only there. Each is a finding
  // whatever the outcome reads (R11).
  const byDigest = entriesByDigest(opened.entries);
  const outcome = account.records.outcome;
  const recorded = outcome === 'not-recorded' ? undefined : byDigest.get(outcome.sha256)?.record;
  const evidence = examineAttemptEvidence(account, recorded?.kind === 'outcome' ? recorded.result : undefined, {
    ...(options.streamAlsoTo === undefined ? {} : { streamAlsoTo: options.streamAlsoTo }),
    ...(options.classifyStream === false ? { classify: false } : {}),
  });
  const recordDisagreements = compareAttemptRecordsWithKeptFiles(account, byDigest);
  // A record naming another attempt's files, a second outcome, an acceptance no judgement wrote as it stands or whose files changed since: doctor's findings of this attempt.
  const recordFindings = findAttemptRecordFindings(account, opened.targetDirectory, opened.entries);
  const value = {
    ...(await withReceiptState(account, landingsIn(opened.entries))),
    ...evidence,
    headIs: await readWorkspaceFreshness(account),
    recordDisagreements,
    recordFindings,
    ...(selection === 'none' ? {} : { selection }),
    ...readStreamEnding(account.artifacts.stream),
  };
  const evidenceHolds =
    Object.values(evidence.artifactCheck).every((state) => state === 'verified' || state === 'not-recorded') &&
    evidence.outcomeCheck.state !== 'disagrees' &&
    recordDisagreements.length === 0 &&
    recordFindings.length === 0;
  // A required token the init did not apply is a finding too, whatever the outcome (R2.4).
  const requiredHeld = requiredNotApplied(account.posture.capabilities).length === 0;
  return {
    value,
    exitCode: account.outcome === 'completed' && evidenceHolds && requiredHeld ? EXIT.ok : EXIT.finding,
    human: options.posture === true ? renderAccount : (shown) => [...renderAccountSummary(shown, accountFindings(shown)), ...renderSelection(shown.selection)],
  };
}
