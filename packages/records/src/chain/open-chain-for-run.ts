import { refusalOfContradictedChain } from './chain-checkpoint.js';
import { readSummaryLine, type ChainSummary } from './chain-summary.js';
import { readWholeRecord, verifyChainWith, type ChainOpening, type LineReading } from './open-chain.js';
import type { ChainRecord } from './record-schemas.js';

/** A record as `openChainForRun` read it: whole for the run's intents and outcomes, its leading fields otherwise. */
export type RunChainRecord = ChainRecord | ChainSummary;

/**
 * Opens a chain to judge one run (R8.4, R13): every link verified over the whole line, exactly as
 * `openChain` does, but only the run's intents and outcomes read whole — the judge needs their
 * posture and candidate — and every other record by its leading fields, as `run list` reads it
 * (the last line read whole whatever it is). An acceptance record's checks, boundary and receipt
 * are never needed to judge another acceptance, and parsing each whole was most of the opening's
 * cost once a run had been judged a few times. An intent or outcome of the run is therefore whole
 * by construction: `entry.record.kind === 'intent' && entry.record.runId === runId` is an IntentRecord.
 */
export async function openChainForRun(path: string, runId: string): Promise<ChainOpening<RunChainRecord>> {
  // `accept` appends to what this opens: a chain its checkpoint contradicts is refused, as for `run`.
  const contradicted = refusalOfContradictedChain(path);
  if (contradicted !== undefined) return contradicted;
  return verifyChainWith(path, (line: Buffer, isLast: boolean): LineReading<RunChainRecord> => {
    const summary = readSummaryLine(line, isLast);
    if (summary.kind !== 'read' || !('runId' in summary.record) || summary.record.runId !== runId || summary.record.kind === 'acceptance') return summary;
    // Read whole once more: the summary was read from the leading fields only (or whole, when last).
    return readWholeRecord(line);
  });
}
