import * as z from 'zod';
import { CountSchema, NotRecordedSchema } from '@statecraft/adapter';
import { AcceptanceVerdictSchema } from '../chain/acceptance-record.js';
import type { AttemptAccount } from '../read/attempt-account.js';

/**
 * The version of the ranking rule (docs/decisions/0331-ranking-rule.md). A selection names the
 * version it was made by, so that a later rule never silently re-reads an earlier choice.
 */
export const RANKING_RULE_VERSION = 1;

/**
 * The verdicts in the rule's order, best first. `not-judged` is an attempt that completed and was
 * never judged; one that did not complete reads `not-attempted`, as acceptance would say.
 */
export const RANKED_VERDICTS = ['accepted', 'failed', 'authority-change', 'no-acceptance', 'interrupted', 'not-judged', 'not-attempted'] as const;

const RankVerdictSchema = z.union([AcceptanceVerdictSchema, z.literal('not-judged')]);

/** What an attempt is ranked on: recorded evidence only, never the agent's account of itself. */
export const RankKeySchema = z.strictObject({
  verdict: RankVerdictSchema,
  refusals: z.union([CountSchema, NotRecordedSchema]),
  /** How many paths and lines the candidate changes from the base; `not-recorded` without a candidate. */
  change: z.strictObject({
    paths: z.union([CountSchema, NotRecordedSchema]),
    lines: z.union([CountSchema, NotRecordedSchema]),
  }),
  /** Dollars, or `unknown`: a cost never reported ranks after every known one. */
  cost: z.union([z.number().nonnegative(), z.literal('unknown')]),
  durationMs: z.union([z.number().nonnegative(), NotRecordedSchema]),
});
export type RankKey = z.infer<typeof RankKeySchema>;

/** The key of one attempt, read from its account as folded from the chain. */
export function rankKeyOf(account: AttemptAccount): RankKey {
  const judged = account.acceptance;
  const verdict = judged !== 'not-recorded' ? judged.verdict : account.attemptOutcome === 'completed' ? 'not-judged' : 'not-attempted';
  const candidate = typeof account.candidate === 'object' && 'commit' in account.candidate ? account.candidate : undefined;
  const lines = candidate?.changedLines;
  return {
    verdict,
    refusals: account.refusalCount,
    change: {
      paths: candidate === undefined ? 'not-recorded' : candidate.changedPaths.length,
      lines: lines === undefined || lines === 'not-recorded' ? 'not-recorded' : lines.added + lines.removed,
    },
    cost: typeof account.cost === 'number' ? account.cost : 'unknown',
    durationMs: account.durationMs,
  };
}
