import { isRunId } from '../run-id.js';
import type { ChainEntry } from '../chain/open-chain.js';
import type { Finding } from './examine-product-home.js';

/**
 * Intents whose run id is not one `run` makes (newRunId: a time and six hex digits). Every file of
 * an attempt is derived from its run id and number, so such an intent has none: it is not folded
 * into an account (fold-attempts.ts), none of its files is read, and a record naming its files
 * names them where no attempt keeps them (own-evidence-paths.ts). An intent appended with the run
 * id `x/../<another run>` would have its paths normalised into that run's directory, and doctor
 * would read that attempt's files as its own. `run show` cannot be asked for such a run (its
 * argument must be a run id), so this is doctor's finding alone.
 */
export function checkRunIds(chain: string, entries: readonly ChainEntry[]): Finding[] {
  return entries.flatMap((entry) => {
    if (entry.record.kind !== 'intent' || isRunId(entry.record.runId)) return [];
    const { runId, attempt } = entry.record;
    return [
      {
        kind: 'run-id-malformed' as const,
        path: chain,
        message:
          `attempt ${attempt}: the intent record (${chain} line ${entry.lineNumber}) names the run id ${JSON.stringify(runId)}, which is not one statecraft makes ` +
          `(like 20261202T024107Z-5e36a1): no path is derived from it, so none of its files is read and it is in no account doctor or run show reads; ` +
          `statecraft did not write this record (doctor repairs nothing)`,
      },
    ];
  });
}
