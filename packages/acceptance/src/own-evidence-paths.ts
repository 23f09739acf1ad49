import { dirname, join } from 'node:path';
import { attemptArtifactNames, type Artifact, type ChainEntry, type IntentRecord, type OutcomeRecord } from '@statecraft/run';
import type { AttemptAccount } from './attempt-account.js';
import type { Finding } from './examine-product-home.js';

/** A file a record names at a path other than the one its attempt keeps it at. */
export interface EvidenceElsewhere {
  record: 'intent' | 'outcome';
  /** The record's line in the chain. */
  line: number;
  /** Which file: `request`, `prompt`, `stream`, `stderr`, `result`. */
  file: string;
  /** The path as the record holds it, relative to the target's directory. */
  recorded: string;
  /** Where the attempt keeps that file, relative to the target's directory. */
  expected: string;
}

type IntentEntry = ChainEntry & { record: IntentRecord };
type OutcomeEntry = ChainEntry & { record: OutcomeRecord };

/**
 * The files an intent and its outcome name where their attempt does not keep them. `run` names
 * every file of an attempt from its run and number (attemptArtifactNames); a record naming another
 * path names another attempt's evidence (or none), which a relinked line can do without touching a
 * kept file: an outcome appended for a killed attempt, pointing at a good attempt's stream and
 * result, read as `completed` and was judged (hostile pass, 2026-12-02). Readers derive the path
 * (fold-attempts.ts); this says where the record disagrees.
 */
export function attemptFilesElsewhere(intent: IntentEntry, outcome: OutcomeEntry | undefined): EvidenceElsewhere[] {
  const own = attemptArtifactNames(intent.record.runId, intent.record.attempt);
  type Named = [EvidenceElsewhere['record'], number, keyof typeof own, Artifact | 'not-recorded'];
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
  return named.flatMap(([record, line, file, artifact]) =>
    artifact === 'not-recorded' || artifact.path === own[file] ? [] : [{ record, line, file, recorded: artifact.path, expected: own[file] }],
  );
}

/** One attempt's intent and outcome, found in the chain by the digests its account holds, against where it keeps its files. */
export function accountFilesElsewhere(account: AttemptAccount, byDigest: ReadonlyMap<string, ChainEntry>): EvidenceElsewhere[] {
  const intent = byDigest.get(account.records.intent.sha256);
  const outcome = account.records.outcome === 'not-recorded' ? undefined : byDigest.get(account.records.outcome.sha256);
  if (intent?.record.kind !== 'intent') return [];
  return attemptFilesElsewhere(intent as IntentEntry, outcome?.record.kind === 'outcome' ? (outcome as OutcomeEntry) : undefined);
}

/** Files named elsewhere, grouped by the record naming them: its line, and each file in words (the path recorded, the path expected). */
export function namedElsewhereByRecord(
  targetDirectory: string,
  found: readonly EvidenceElsewhere[],
): { record: EvidenceElsewhere['record']; line: number; files: string }[] {
  return [...new Set(found.map((item) => item.line))].map((line) => {
    const ofRecord = found.filter((item) => item.line === line);
    const files = ofRecord.map(
      (item) => `its ${item.file} at ${JSON.stringify(join(targetDirectory, item.recorded))}, not at ${join(targetDirectory, item.expected)}`,
    );
    return { record: ofRecord[0]?.record ?? 'intent', line, files: files.join('; ') };
  });
}

/** The findings of files named elsewhere, one per record: the attempt, the record and its line, each file with both paths, and why it matters. */
export function describeEvidenceElsewhere(chain: string, attempt: { runId: string; attempt: number }, found: readonly EvidenceElsewhere[]): Finding[] {
  return namedElsewhereByRecord(dirname(chain), found).map(({ record, line, files }) => {
    const why =
      "statecraft names every file of an attempt from its run and number, so this record names evidence that is not its attempt's own (the attempt's own files are read in its place)";
    return {
      kind: 'evidence-elsewhere',
      path: chain,
      message: `run ${attempt.runId} attempt ${attempt.attempt}: the ${record} record (${chain} line ${line}) names ${files}: ${why}; statecraft did not write this record as it stands (doctor repairs nothing)`,
    };
  });
}
