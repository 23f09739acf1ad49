import { join } from 'node:path';
import type { AcceptanceRecord, CheckOutput } from '../chain/acceptance-record.js';
import type { ChainEntry } from '../chain/open-chain.js';
import { entriesByDigest } from '../read/attempt-records.js';
import { attemptJudgedBy } from './check-acceptance-records.js';
import { readKeptFile } from '../read/read-kept-file.js';
import type { Finding } from './examine-product-home.js';
import { acceptanceFilesElsewhere, acceptanceKeptFiles } from '../read/own-evidence-paths.js';

/** A kept acceptance file whose bytes no longer match the digest its record holds, or that cannot be read as a regular file. */
export interface AlteredEvidence {
  runId: string;
  attempt: number;
  /** The acceptance record's line. */
  line: number;
  path: string;
  /** Which file: `check-1.stdout`, `receipt.json` … */
  file: string;
  /** The digest and size the record holds. */
  recorded: Pick<CheckOutput, 'sha256' | 'bytes'>;
  state: { kind: 'altered' } | { kind: 'missing'; why: string };
}

/**
 * Re-digests every receipt and check output kept beside the chain against the digests its
 * acceptance records hold (`doctor`); read-only. Each is opened as a regular file only, as the
 * attempt's own files are (check-artifacts.ts): a FIFO there would block a plain open for ever, and
 * a link to /dev/zero would be read without end. Only files where the judged attempt keeps them
 * are read: one named elsewhere is the record's finding
 * (`evidence-elsewhere`), and is not this attempt's to digest. `only`: the acceptances of one
 * attempt (`run show`), no other's files read.
 */
export function checkAcceptanceEvidence(targetDirectory: string, entries: readonly ChainEntry[], only?: { runId: string; attempt: number }): AlteredEvidence[] {
  const byDigest = entriesByDigest(entries);
  const found: AlteredEvidence[] = [];
  for (const entry of entries) {
    if (entry.record.kind !== 'acceptance') continue;
    const record: AcceptanceRecord = entry.record;
    const judged = attemptJudgedBy(record, byDigest);
    if (judged === undefined) continue;
    if (only !== undefined && (only.runId !== judged.runId || only.attempt !== judged.attempt)) continue;
    const elsewhere = new Set(acceptanceFilesElsewhere({ ...entry, record }, judged).map((item) => item.file));
    for (const [file, output] of acceptanceKeptFiles(record)) {
      if (elsewhere.has(file)) continue;
      const path = join(targetDirectory, output.path);
      const reading = readKeptFile(path);
      const recorded = { sha256: output.sha256, bytes: output.bytes };
      const state: AlteredEvidence['state'] | undefined =
        reading.kind === 'unreadable'
          ? { kind: 'missing', why: reading.why }
          : reading.sha256 === output.sha256 && reading.bytes === output.bytes
            ? undefined
            : { kind: 'altered' };
      if (state !== undefined) found.push({ runId: judged.runId, attempt: judged.attempt, line: entry.lineNumber, path, file, recorded, state });
    }
  }
  return found;
}

/** A receipt or check output that is not the file its acceptance record sealed: what stands there, and the record (doctor, run show). */
export function describeAlteredAcceptanceEvidence(chain: string, altered: AlteredEvidence): Finding {
  const { path, file, recorded, state } = altered;
  const what =
    state.kind === 'missing'
      ? `${state.why}, where the acceptance record holds its digest (${recorded.bytes} bytes, sha256 ${recorded.sha256})`
      : `no longer has the digest the acceptance record holds (${recorded.bytes} bytes, sha256 ${recorded.sha256}); it was changed after the judgement`;
  return {
    kind: 'altered-acceptance-evidence',
    path,
    message: `${path}: the ${file} kept by the acceptance of run ${altered.runId} attempt ${altered.attempt} (${chain} line ${altered.line}) ${what}; that acceptance's evidence cannot be relied on`,
  };
}
