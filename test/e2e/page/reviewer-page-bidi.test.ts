import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePrompt } from '../../fixtures/acceptance-repository.js';
import { launchChromium, openOffline } from '../../fixtures/reviewer-browser.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// A hostile pass on the reviewer's page (issue 32): the page names every bidirectional control
// visibly, so a diff cannot show code in an order other than the compiler reads it. U+061C (the
// Arabic letter mark) is one (Unicode's Bidi_Control, and the terminal's rendering names it): in
// `x = <U+061C>12-34;` it turns 12-34 into numbers of an Arabic context, and a browser shows the
// line as `x = 34-12;`. The agent writes the file; the reviewer reads the page in chromium.

const targets = useTestTargets({ sharedRepository: false });
const scratch = scratchDirectories();
const ALM = '\u061c';
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** Whether, as laid out, the first `a` of the element's text lies left of its first `b`. */
const leftOf = (selector: string, a: string, b: string): string =>
  `(() => {
    const walker = document.createTreeWalker(document.querySelector(${JSON.stringify(selector)}), NodeFilter.SHOW_TEXT);
    const at = (needle) => { walker.currentNode = walker.root; for (let node = walker.nextNode(); node; node = walker.nextNode()) { const i = node.data.indexOf(needle); if (i >= 0) { const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + needle.length); return r.getBoundingClientRect().x; } } return NaN; };
    return at(${JSON.stringify(a)}) < at(${JSON.stringify(b)});
  })()`;

describe("the reviewer's page shows the agent's text in the order it is read", () => {
  it('a diff line holding U+061C names it, and shows 12-34 as written', async () => {
    const repository = await targets.fresh();
    const run = await runStatecraft(
      ['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', 'limits.txt', `x = ${ALM}12-34;`), '--json'],
      { home: targets.home.path, timeoutMs: 120_000 },
    );
    const runId = parseJson<{ runId: string }>(run).runId;
    const path = join(await scratch.make('statecraft-bidi-page'), 'page.html');
    const show = await runStatecraft(['run', 'show', repository.path, runId, '--html', '-o', path], { home: targets.home.path, timeoutMs: 120_000 });
    expect([0, 1], show.stderr).toContain(show.exitCode);
    const { page, others, close } = await openOffline(browser, path);
    try {
      expect(others).toEqual([]);
      const added = page.locator('#diff pre.diff span.add', { hasText: '34;' });
      expect(await added.count()).toBe(1);
      expect(await added.textContent(), 'the mark is named visibly').toContain('U+061C');
      expect(await page.evaluate<boolean>(leftOf('#diff pre.diff', '12', '34')), '12 is shown before 34, as the file holds it').toBe(true);
    } finally {
      await close();
    }
  }, 180_000);
});
