import { isDeepStrictEqual } from 'node:util';
import { rankAttempts, RANKING_RULE_VERSION, type AttemptAccount, type ChainEntry, type RankedAttempt } from '@statecraft/records';
import type { SelectionView } from '../json-schemas/index.js';

/**
 * The run's last selection record as shown, with the rule applied again to its attempts' records
 * as they stand: anyone can recompute the choice, and this does, every time it is shown.
 */
export function readRunSelection(entries: readonly ChainEntry[], accounts: readonly AttemptAccount[], runId: string): SelectionView | 'none' {
  const found = entries.findLast((entry) => entry.record.kind === 'selection' && entry.record.runId === runId);
  if (found === undefined || found.record.kind !== 'selection') return 'none';
  const { record } = found;
  return {
    record: { line: found.lineNumber, sha256: found.digest, at: record.at },
    rule: record.rule,
    ranked: record.ranked,
    chosen: record.chosen,
    rankedNow: rankedNow(record.rule.version, record.ranked, accounts),
  };
}

function rankedNow(version: number, recorded: readonly RankedAttempt[], accounts: readonly AttemptAccount[]): SelectionView['rankedNow'] {
  if (version !== RANKING_RULE_VERSION) return 'other-rule';
  const named = new Set(recorded.map((entry) => `${entry.runId}/${String(entry.attempt)}`));
  const now = rankAttempts(accounts.filter((account) => named.has(`${account.runId}/${String(account.attempt)}`)));
  const [first] = now;
  const same = isDeepStrictEqual(now, recorded);
  if (same || first === undefined) return 'agrees';
  return { ranked: now, chosen: { runId: first.runId, attempt: first.attempt } };
}
