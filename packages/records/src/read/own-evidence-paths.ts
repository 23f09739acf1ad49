import { dirname, join } from 'node:path';
import { attemptArtifactNames, attemptDirectoryName } from '../chain/chain-paths.js';
import { isRunId } from '../run-id.js';
import type { AcceptanceRecord, CheckOutput } from '../chain/acceptance-record.js';
import type { Artifact, IntentRecord, OutcomeRecord } from '../chain/record-schemas.js';
import type { ChainEntry } from '../chain/open-chain.js';
import type { AttemptAccount } from './attempt-account.js';
import { attemptRecordsOf } from './attempt-records.js';
import type { Finding } from '../doctor/examine-product-home.js';

/** A file a record names at a path other than the one its attempt keeps it at. */
export interface EvidenceElsewhere {
  record: 'intent' | 'outcome' | 'acceptance';
  /** The record's line in the chain. */
  line: number;
  /** Which file: `request`, `stream`, `check-1.stdout`, `receipt.json` … */
  file: string;
  /** The path as the record holds it, relative to the target's directory. */
  recorded: string;
  /** Where the attempt keeps that file, relative to the target's directory; `nowhere` when its run id is not one `run` makes. */
  expected: { path: string } | 'nowhere';
}

type IntentEntry = ChainEntry & { record: IntentRecord };
type OutcomeEntry = ChainEntry & { record: OutcomeRecord };
type AcceptanceEntry = ChainEntry & { record: AcceptanceRecord };

/**
 * The files an intent and its outcome name where their attempt does not keep them. `run` names
 * every file of an attempt from its run and number (attemptArtifactNames); a record naming another
 * path names another attempt's evidence (or none), which a relinked line can do without touching a
 * kept file: an outcome appended for a killed attempt, pointing at a good attempt's stream and
 * result, would read as `completed` and be judged. Readers derive the path (fold-attempts.ts); this says where the record disagrees. An intent whose run id is not one `run`
 * makes keeps no file anywhere (ownAttemptFiles), so every file its records name is elsewhere.
 */
export function attemptFilesElsewhere(intent: IntentEntry, outcome: OutcomeEntry | undefined): EvidenceElsewhere[] {
  const own = ownAttemptFiles(intent.record.runId, intent.record.attempt);
  type Named = [EvidenceElsewhere['record'], number, keyof ReturnType<typeof attemptArtifactNames>, Artifact | 'not-recorded'];
  const named: Named[] = [
    ['intent', intent.lineNumber, 'request', intent.record.artifacts.request],
    ['intent', intent.lineNumber, 'prompt', intent.record.artifacts.prompt],
  ];
  if (outcome !== undefined) {
    const { stream, stderr, result } = outcome.record.artifacts;
    named.push(
      ['outcome', outcome.lineNumber, 'stream', stream],
      ['outcome', outcome.lineNumber, 'stderr', stderr],
      ['outcome', outcome.lineNumber, 'result', result],
    );
  }
  return named.flatMap(([record, line, file, artifact]): EvidenceElsewhere[] => {
    if (artifact === 'not-recorded' || artifact.path === own?.[file]) return [];
    return [{ record, line, file, recorded: artifact.path, expected: own === undefined ? 'nowhere' : { path: own[file] } }];
  });
}

/**
 * Where an attempt keeps its files, relative to the target's directory, derived from its run and
 * number as `run` names them; `undefined` when the run id is not one `run` makes (newRunId): a run
 * id read from the chain is not trusted into a path: an intent appended with the run id
 * `x/../<another run>` would have its files derived, and normalised, into that run's directory,
 * and doctor would read another attempt's files as its own.
 */
function ownAttemptFiles(runId: string, attempt: number): ReturnType<typeof attemptArtifactNames> | undefined {
  return isRunId(runId) ? attemptArtifactNames(runId, attempt) : undefined;
}

/**
 * The files an acceptance names outside the judged attempt's own `acceptance-N` directory, or under
 * another name than the judge gives them (`check-K.stdout` for the K-th check, `receipt.json`), or
 * in more than one directory: a judgement writes all its files into one fresh directory of the
 * attempt it judges (free-outputs-directory.ts, run-suite.ts); a record naming another attempt's
 * receipt and check outputs would make a failed attempt read `accepted`. `judged` is the attempt whose outcome the record names.
 */
export function acceptanceFilesElsewhere(acceptance: AcceptanceEntry, judged: { runId: string; attempt: number }): EvidenceElsewhere[] {
  const named = acceptanceKeptFiles(acceptance.record);
  const directory = ownAcceptanceDirectory(
    named.map(([, output]) => output.path),
    judged,
  );
  return named.flatMap(([file, output]): EvidenceElsewhere[] => {
    const expected = directory === undefined ? 'nowhere' : { path: `${directory}/${file}` };
    if (expected !== 'nowhere' && output.path === expected.path) return [];
    return [{ record: 'acceptance', line: acceptance.lineNumber, file, recorded: output.path, expected }];
  });
}

/** The files an acceptance record names, each with the name the judge gives it: `check-K.stdout` and `.stderr` for the K-th check, `receipt.json`, `receipt.sigstore.json`. */
export function acceptanceKeptFiles(record: AcceptanceRecord): [file: string, output: CheckOutput][] {
  return [
    ...record.checks.flatMap((check, index): [string, CheckOutput][] => [
      [`check-${index + 1}.stdout`, check.stdout],
      [`check-${index + 1}.stderr`, check.stderr],
    ]),
    ...(record.receiptFile === 'none' ? [] : [['receipt.json', record.receiptFile] as [string, CheckOutput]]),
    ...(record.receiptSignature === undefined ? [] : [['receipt.sigstore.json', record.receiptSignature] as [string, CheckOutput]]),
  ];
}

/**
 * The judged attempt's `acceptance-N` the record's files belong in: the first of its directories
 * the record names, else `acceptance-N` itself (no number of the attempt's is named at all); none
 * when the attempt's run id is not one `run` makes (ownAttemptFiles).
 */
function ownAcceptanceDirectory(paths: readonly string[], judged: { runId: string; attempt: number }): string | undefined {
  if (!isRunId(judged.runId)) return undefined;
  const prefix = `${attemptDirectoryName(judged.runId, judged.attempt)}/acceptance-`;
  const own = paths.map((path) => dirname(path)).find((directory) => directory.startsWith(prefix) && /^[1-9][0-9]*$/.test(directory.slice(prefix.length)));
  return own ?? `${prefix}N`;
}

/** One attempt's intent and outcome, found in the chain by the digests its account holds, against where it keeps its files. */
export function accountFilesElsewhere(account: AttemptAccount, byDigest: ReadonlyMap<string, ChainEntry>): EvidenceElsewhere[] {
  const records = attemptRecordsOf(account, byDigest);
  return records === undefined ? [] : attemptFilesElsewhere(records.intent, records.outcome);
}

/** Files named elsewhere, grouped by the record naming them: its line, and each file in words (the path recorded, the path expected). */
export function namedElsewhereByRecord(
  targetDirectory: string,
  found: readonly EvidenceElsewhere[],
): { record: EvidenceElsewhere['record']; line: number; files: string }[] {
  return [...new Set(found.map((item) => item.line))].map((line) => {
    const ofRecord = found.filter((item) => item.line === line);
    const files = ofRecord.map(
      (item) =>
        `its ${item.file} at ${JSON.stringify(join(targetDirectory, item.recorded))}, ${item.expected === 'nowhere' ? 'which its attempt cannot keep (its run id is not one statecraft makes)' : `not at ${join(targetDirectory, item.expected.path)}`}`,
    );
    return { record: ofRecord[0]?.record ?? 'acceptance', line, files: files.join('; ') };
  });
}

/** The findings of files named elsewhere, one per record: the attempt, the record and its line, each file with both paths, and why it matters. */
export function describeEvidenceElsewhere(chain: string, attempt: { runId: string; attempt: number }, found: readonly EvidenceElsewhere[]): Finding[] {
  return namedElsewhereByRecord(dirname(chain), found).map(({ record, line, files }) => {
    const why =
      record === 'acceptance'
        ? 'a judgement writes all its files into one acceptance-N directory of the attempt it judges, so this record vouches with evidence no judgement of this attempt wrote'
        : "statecraft names every file of an attempt from its run and number, so this record names evidence that is not its attempt's own (the attempt's own files are read in its place)";
    return {
      kind: 'evidence-elsewhere',
      path: chain,
      message: `run ${attempt.runId} attempt ${attempt.attempt}: the ${record} record (${chain} line ${line}) names ${files}: ${why}; statecraft did not write this record as it stands (doctor repairs nothing)`,
    };
  });
}
