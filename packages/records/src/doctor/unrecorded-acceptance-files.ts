import { readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ChainEntry } from '../chain/open-chain.js';
import type { Finding } from './examine-product-home.js';

/** What a judge writes in its acceptance-N directory: the checks' outputs, and a receipt (and its signature) when accepted. */
const JUDGEMENT_FILE = /^(receipt\.json|receipt\.sigstore\.json|check-\d+\.(stdout|stderr))$/;

/**
 * Acceptance directories holding a receipt or check outputs that no acceptance record names (R13.6,
 * R8.4): the judgement's record was never appended — the append failed after the receipt was kept,
 * a check's output could not be written (nothing is then appended), or the judge was killed
 * mid-suite (a check that never started leaves no files, superviseCheck). Nothing else would
 * mention them, and a receipt there looks like evidence while it vouches for nothing. A record
 * names a directory by the files it holds digests of. The live judge's own run (under the lock),
 * and a directory changed after doctor began, are not yet named: their record may be on its way.
 * As for unrecorded attempt files, doctor removes nothing.
 */
export async function findUnrecordedAcceptanceFiles(
  directory: string,
  entries: readonly ChainEntry[],
  live: 'none' | { runId: string },
  startedAtMs: number,
): Promise<Finding[]> {
  const named = new Set<string>();
  for (const entry of entries) {
    if (entry.record.kind !== 'acceptance') continue;
    const record = entry.record;
    for (const kept of [
      ...record.checks.flatMap((check) => [check.stdout, check.stderr]),
      ...(record.receiptFile === 'none' ? [] : [record.receiptFile]),
      ...(record.receiptSignature === undefined ? [] : [record.receiptSignature]),
    ])
      named.add(join(directory, dirname(kept.path)));
  }
  const attempts = join(directory, 'attempts');
  const findings: Finding[] = [];
  for (const runId of (await readdir(attempts).catch(() => [] as string[])).sort()) {
    // The lock names the attempt it was asked for, not always the one judged: the whole run is spared.
    if (live !== 'none' && live.runId === runId) continue;
    for (const attempt of (await readdir(join(attempts, runId)).catch(() => [] as string[])).sort()) {
      const judgements = (await readdir(join(attempts, runId, attempt)).catch(() => [] as string[])).filter((name) => /^acceptance-\d+$/.test(name));
      for (const name of judgements.sort()) {
        const path = join(attempts, runId, attempt, name);
        if (named.has(path)) continue;
        const files = (await readdir(path).catch(() => [] as string[])).filter((file) => JUDGEMENT_FILE.test(file));
        if (files.length === 0) continue;
        const changed = await stat(path).then(
          (info) => info.mtimeMs,
          () => Number.POSITIVE_INFINITY,
        );
        if (changed >= startedAtMs) continue;
        const receipt = files.includes('receipt.json') ? '; its receipt vouches for nothing' : '';
        findings.push({
          kind: 'unrecorded-acceptance-files',
          path,
          message: `${path}: ${files.sort().join(', ')} of a judgement of run ${runId} attempt ${attempt} that no acceptance record names (its record was never appended: writing the record or a check's output to the product home failed, or the judge was stopped)${receipt}; a later accept judges into a new directory; doctor removes nothing`,
        });
      }
    }
  }
  return findings;
}
