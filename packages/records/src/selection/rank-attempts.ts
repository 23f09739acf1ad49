import type { AttemptAccount } from '../read/attempt-account.js';
import { RANKED_VERDICTS, rankKeyOf, type RankKey } from './rank-key.js';

/** One attempt as the rule ranks it. */
export interface RankedAttempt {
  runId: string;
  attempt: number;
  key: RankKey;
}

/**
 * The attempts best first, by the fixed rule (docs/decisions/0331-ranking-rule.md): the verdict
 * (RANKED_VERDICTS' order), then fewer refusals, then fewer changed paths, then fewer changed
 * lines, then lower cost, then shorter duration, then the lower attempt number (and run id, for
 * attempts of several runs). A value not recorded ranks after every recorded one.
 */
export function rankAttempts(accounts: readonly AttemptAccount[]): RankedAttempt[] {
  return rankKeyed(accounts.map((account) => ({ runId: account.runId, attempt: account.attempt, key: rankKeyOf(account) })));
}

/** The same order over keys already read (a selection's recorded ones, recomputed). */
export function rankKeyed(attempts: readonly RankedAttempt[]): RankedAttempt[] {
  return [...attempts].sort(compareRanked);
}

function compareRanked(a: RankedAttempt, b: RankedAttempt): number {
  return (
    RANKED_VERDICTS.indexOf(a.key.verdict) - RANKED_VERDICTS.indexOf(b.key.verdict) ||
    lowerKnown(a.key.refusals, b.key.refusals) ||
    lowerKnown(a.key.change.paths, b.key.change.paths) ||
    lowerKnown(a.key.change.lines, b.key.change.lines) ||
    lowerKnown(a.key.cost, b.key.cost) ||
    lowerKnown(a.key.durationMs, b.key.durationMs) ||
    a.attempt - b.attempt ||
    (a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0)
  );
}

/** Lower first; a value that is not a number (`unknown`, `not-recorded`) after every number. */
function lowerKnown(a: number | string, b: number | string): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  return 0;
}
