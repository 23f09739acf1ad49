import { readChainCheckpoint, refusalOfContradictedChain } from './chain-checkpoint.js';
import { readSummaryLine, summariesOnWorker, type ChainSummary } from './chain-summary.js';
import { readWholeRecord, verifyChainWith, type ChainOpening, type LineReading } from './open-chain.js';

/**
 * Opens a chain to append to it (R8.4), under the repository lock: from the checkpoint of the last
 * verified tip when it still matches the chain's bytes (chain-checkpoint.ts), every link after it
 * verified and every record after it read whole; from the beginning otherwise, as `run list`
 * reads it. Nothing before a usable checkpoint is read, so an append costs what was appended
 * since, not the chain's length; a break after the checkpoint is refused exactly as before.
 * No entries are kept: an append needs only the tip, the next seq and the torn tail.
 */
export async function openChainForAppend(chainFile: string): Promise<ChainOpening<ChainSummary>> {
  const checkpoint = readChainCheckpoint(chainFile);
  // Never append past damage the checkpoint shows, nor cut it as if it were a torn append.
  const contradicted = refusalOfContradictedChain(chainFile, checkpoint);
  if (contradicted !== undefined) return contradicted;
  if (checkpoint.kind === 'usable') return verifyChainWith(chainFile, readWholeAsSummary, { from: checkpoint.start, entries: 'none' });
  return verifyChainWith(chainFile, readSummaryLine, { entries: 'none', onWorker: summariesOnWorker() });
}

/** A whole record carries every leading field, so it reads as its summary. */
function readWholeAsSummary(line: Buffer): LineReading<ChainSummary> {
  return readWholeRecord(line);
}
