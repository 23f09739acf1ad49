import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { dir } from 'tmp-promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendRecord, foldAttempts, openChainToAppend, selectionOf } from '@statecraft/records';
import { repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { launchChromium, openOffline } from '../../fixtures/reviewer-browser.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// A run's selection among its attempts, as `run show` and the reviewer's page show it: the
// recorded keys best first, the chosen attempt shown by default, and the rule applied again to the
// records as they stand (docs/decisions/0331-ranking-rule.md).

const targets = useTestTargets({ sharedRepository: false });
const home = () => ({ home: targets.home.path, timeoutMs: 120_000 });
let browser: Browser;
let scratch: { path: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  browser = await launchChromium();
  scratch = await dir({ unsafeCleanup: true, prefix: 'statecraft-selection' });
});
afterAll(async () => {
  await browser?.close();
  await scratch?.cleanup();
});

interface Ranked {
  attempt: number;
  key: { verdict: string; change: { paths: number | string; lines: number | string } };
}
interface Shown {
  runId: string;
  attempt: number;
  records: { chain: string };
  selection?: {
    chosen: { attempt: number };
    ranked: Ranked[];
    rankedNow: 'agrees' | 'other-rule' | { chosen: { attempt: number } };
  };
}

/** Appends the run's selection as `run --attempts` does once its attempts end: from the chain's own records. */
async function appendSelection(chain: string, runId: string): Promise<void> {
  const opening = await openChainToAppend(chain);
  if (opening.kind !== 'opened') throw new Error(`${chain}: ${opening.kind}`);
  const accounts = foldAttempts(chain, join(chain, '..'), opening.entries, 'none').filter((account) => account.runId === runId);
  await appendRecord(chain, opening, selectionOf(runId, accounts));
}

describe('run show and the reviewer page show the comparison of a run’s attempts', () => {
  it('the chosen attempt is shown by default with the ranked table; judged later, the rule applied again says what it would choose', async () => {
    const repository = await repositoryWithSuite(targets, { checks: ['grep -qx forty-two answer.txt'] });
    // Attempt 1 fails its check; attempt 2 (a retry) writes the answer but is not judged.
    const first = await runStatecraft(
      ['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', 'answer.txt', 'wrong'), '--accept', '--json'],
      home(),
    );
    const { runId, records } = parseJson<Shown>(first);
    const second = await runStatecraft(
      ['run', repository.path, '--retry', runId, '--prompt', writePrompt('write', 'answer.txt', 'forty-two'), '--json'],
      home(),
    );
    expect(second.exitCode).toBe(0);
    await appendSelection(records.chain, runId);

    const show = await runStatecraft(['run', 'show', repository.path, runId, '--json'], home());
    const shown = parseJson<Shown>(show);
    // failed ranks above not-judged: attempt 1 is chosen, and shown, though attempt 2 is the latest.
    expect(shown.attempt).toBe(1);
    expect(shown.selection).toMatchObject({ chosen: { attempt: 1 }, rankedNow: 'agrees' });
    if (shown.selection === undefined) throw new Error('no selection shown');
    expect(shown.selection.ranked.map((entry) => [entry.attempt, entry.key.verdict, entry.key.change])).toEqual([
      [1, 'failed', { paths: 1, lines: 1 }],
      [2, 'not-judged', { paths: 1, lines: 1 }],
    ]);
    const text = await runStatecraft(['run', 'show', repository.path, runId], { ...home(), env: { NO_COLOR: '1' } });
    const lines = text.stdout.split('\n');
    expect(lines).toEqual(expect.arrayContaining([expect.stringMatching(/^\* 1 +failed +0 +1 +1 /), expect.stringMatching(/^ {2}2 +not-judged +0 /)]));
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);

    // Judged now, attempt 2 is accepted: the rule, applied again to the records, would choose it.
    const accepted = await runStatecraft(['accept', repository.path, runId, '--attempt', '2', '--json'], home());
    expect(accepted.exitCode).toBe(0);
    const again = parseJson<Shown>(await runStatecraft(['run', 'show', repository.path, runId, '--json'], home()));
    expect(again.selection).toMatchObject({ chosen: { attempt: 1 }, rankedNow: { chosen: { attempt: 2 } } });
    const said = await runStatecraft(['run', 'show', repository.path, runId], { ...home(), env: { NO_COLOR: '1' } });
    expect(said.stdout).toContain('the rule chooses attempt 2');

    const path = join(scratch.path, 'selection.html');
    const page = await runStatecraft(['run', 'show', repository.path, runId, '--html', '-o', path], home());
    expect(page.stderr).toBe('');
    const opened = await openOffline(browser, path);
    try {
      const rows = await opened.page.locator('#comparison tr.ranked').allTextContents();
      expect(rows.map((row) => row.replace(/\s+/g, ' ').trim())).toEqual([
        expect.stringMatching(/^chosen ?1 ?failed ?0 ?1 path, 1 lines/),
        // The keys as recorded when the choice was made; the note below says what the rule says now.
        expect.stringMatching(/^2 ?not-judged ?0 ?1 path, 1 lines/),
      ]);
      expect(await opened.page.locator('#recomputed').textContent()).toContain('the rule chooses attempt 2');
    } finally {
      await opened.close();
    }
  });

  it('a run with no selection shows none: run show --json has no selection field, as run --json has none', async () => {
    const repository = await targets.fresh();
    const run = parseJson<Shown>(await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], home()));
    const shown = parseJson<Shown>(await runStatecraft(['run', 'show', repository.path, run.runId, '--json'], home()));
    expect(shown.selection).toBeUndefined();
    expect('selection' in run).toBe(false);
  });
});
