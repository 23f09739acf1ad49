import { join } from 'node:path';
import { hashFile } from '@statecraft/adapter';
import type { AcceptanceRecord, ChainEntry, CheckOutput } from '@statecraft/run';

/** A kept acceptance file whose bytes no longer match the digest its record holds. */
export interface AlteredEvidence {
  runId: string;
  attempt: number;
  /** The acceptance record's line. */
  line: number;
  path: string;
  state: 'altered' | 'missing';
}

/**
 * Re-digests every receipt and check output kept beside the chain against the digests its
 * acceptance records hold (issue 12 item 7: `doctor`); read-only.
 */
export async function checkAcceptanceEvidence(targetDirectory: string, entries: readonly ChainEntry[]): Promise<AlteredEvidence[]> {
  const found: AlteredEvidence[] = [];
  for (const entry of entries) {
    if (entry.record.kind !== 'acceptance') continue;
    const record: AcceptanceRecord = entry.record;
    const kept: CheckOutput[] = [
      ...record.checks.flatMap((check) => [check.stdout, check.stderr]),
      ...(record.receiptFile === 'none' ? [] : [record.receiptFile]),
    ];
    for (const output of kept) {
      const path = join(targetDirectory, output.path);
      const digest = await hashFile(path).catch(() => undefined);
      const state = digest === undefined ? 'missing' : digest.sha256 === output.sha256 && digest.bytes === output.bytes ? undefined : 'altered';
      if (state !== undefined) found.push({ runId: record.runId, attempt: record.attempt, line: entry.lineNumber, path, state });
    }
  }
  return found;
}
