import type { AttemptAccount } from '../read/attempt-account.js';
import type { SelectionRecord } from './selection-record.js';
import { rankAttempts } from './rank-attempts.js';
import { RANKING_RULE_VERSION } from './rank-key.js';

export type UnlinkedSelection = Omit<SelectionRecord, 'prev' | 'seq' | 'format'>;

/** The selection record of a run's ended attempts: ranked by the rule, the first chosen. */
export function selectionOf(runId: string, accounts: readonly AttemptAccount[], at: Date = new Date()): UnlinkedSelection {
  const ranked = rankAttempts(accounts);
  const [first] = ranked;
  if (first === undefined) throw new Error(`run ${runId}: a selection needs at least one attempt`);
  return {
    at: at.toISOString(),
    kind: 'selection',
    runId,
    rule: { version: RANKING_RULE_VERSION },
    ranked,
    chosen: { runId: first.runId, attempt: first.attempt },
  };
}
