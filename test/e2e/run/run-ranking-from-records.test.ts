import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { repositoryWithSuite } from '../../fixtures/acceptance-repository.js';
import { createPerAttemptAdapter } from '../../fixtures/per-attempt-adapter.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// The choice among a run's attempts is one anyone can recompute from the records alone
// (docs/decisions/0331-ranking-rule.md): the expected order below is computed by this test from
// the chain's own lines — never from statecraft's ranking code — and must be the selection's.

interface Many {
  runId: string;
  records?: { chain: string };
  selection: 'none' | { chosen: number; ranked: { attempt: number }[] };
}
type Line = Record<string, unknown> & { kind: string; runId?: string; attempt?: number };

const targets = useTestTargets({ sharedRepository: false });
const home = () => ({ home: targets.home.path, timeoutMs: 300_000 });

const VERDICTS = ['accepted', 'failed', 'authority-change', 'no-acceptance', 'interrupted', 'not-judged', 'not-attempted'];

/** The rule, written again from its decision record: each field breaks only a tie of those before it; what is not recorded ranks last. */
function expectedOrder(lines: readonly Line[], runId: string): number[] {
  const ofRun = lines.filter((line) => line.runId === runId);
  const keys = ofRun
    .filter((line) => line.kind === 'outcome')
    .map((outcome) => {
      const attempt = outcome.attempt as number;
      const judged = ofRun.filter((line) => line.kind === 'acceptance' && line.attempt === attempt).at(-1);
      const candidate = outcome.candidate as { changedPaths?: string[]; changedLines?: { added: number; removed: number } } | string | undefined;
      const identified = typeof candidate === 'object' ? candidate : undefined;
      const result = outcome.result as { durationMs?: number };
      return {
        attempt,
        verdict: judged !== undefined ? (judged.verdict as string) : outcome.outcome === 'completed' ? 'not-judged' : 'not-attempted',
        refusals: outcome.refusalCount as number,
        paths: identified?.changedPaths?.length,
        lines: identified?.changedLines === undefined ? undefined : identified.changedLines.added + identified.changedLines.removed,
        cost:
          typeof outcome.cost === 'object' && outcome.cost !== null
            ? (outcome.cost as { usd: number }).usd
            : typeof outcome.cost === 'number'
              ? outcome.cost
              : undefined,
        duration: result.durationMs,
      };
    });
  const lower = (a: number | undefined, b: number | undefined): number =>
    a !== undefined && b !== undefined ? a - b : a !== undefined ? -1 : b !== undefined ? 1 : 0;
  keys.sort(
    (a, b) =>
      VERDICTS.indexOf(a.verdict) - VERDICTS.indexOf(b.verdict) ||
      lower(a.refusals, b.refusals) ||
      lower(a.paths, b.paths) ||
      lower(a.lines, b.lines) ||
      lower(a.cost, b.cost) ||
      lower(a.duration, b.duration) ||
      a.attempt - b.attempt,
  );
  return keys.map((key) => key.attempt);
}

describe('the ranking of run --attempts, recomputed from the chain alone', () => {
  it('seven attempts differing in verdict, refusals, paths, lines and cost: the selection is the order the records give', async () => {
    const repository = await repositoryWithSuite(targets, { checks: ['grep -qx ok answer.txt'] });
    const adapter = await createPerAttemptAdapter('ranked', {
      1: { write: { path: 'answer.txt', text: 'ok\nextra\nlines' }, cost: 0.01 },
      2: { write: { path: 'answer.txt', text: 'ok' }, cost: 0.05 },
      3: { write: { path: 'answer.txt', text: 'ok' }, cost: 'unknown' },
      4: { write: { path: 'answer.txt', text: 'no' }, cost: 0.01 },
      5: { refusals: 2 },
      6: { refusals: 1 },
      7: { write: { path: 'answer.txt', text: 'ok' }, also: { path: 'b.txt', text: 'x' }, cost: 0.01 },
    });
    try {
      const ran = await runStatecraft(
        ['run', repository.path, '--adapter', adapter.executable, '--attempts', '7', '--parallel', '4', '--accept', '--prompt', 'answer', '--json'],
        home(),
      );
      expect(ran.exitCode, ran.stderr).toBe(0);
      const many = parseJson<Many>(ran);
      if (many.selection === 'none') throw new Error('no selection');
      const chain = JSON.parse((await runStatecraft(['run', 'show', repository.path, many.runId, '--json'], home())).stdout) as { records: { chain: string } };
      const lines = readFileSync(chain.records.chain, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Line);
      const expected = expectedOrder(lines, many.runId);
      // Written out too, so a mistake in the recomputation cannot agree with one in the product.
      expect(expected).toEqual([2, 3, 1, 7, 4, 6, 5]);
      expect(many.selection.ranked.map((entry) => entry.attempt)).toEqual(expected);
      expect(many.selection.chosen).toBe(2);
      const selection = lines.filter((line) => line.kind === 'selection' && line.runId === many.runId);
      expect(selection).toHaveLength(1);
      expect((selection[0]?.ranked as { attempt: number }[]).map((entry) => entry.attempt)).toEqual(expected);
    } finally {
      await adapter.remove();
    }
  });
});
