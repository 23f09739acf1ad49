import { appendFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { dir } from 'tmp-promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { fileMarks, launchChromium, openOffline } from '../../fixtures/reviewer-browser.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { createScriptedAdapter } from '../../fixtures/scripted-adapter.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// The reviewer's page (`run show --html`), opened in Debian's chromium with no network: what it
// shows is asserted on the rendered page, and its per-file digest marks are the browser's own.

/** Where the screenshots are kept (gitignored): a test artifact a person can look at. */
const SCREENSHOTS = fileURLToPath(new URL('../../../test-results/reviewer-page/', import.meta.url));

const targets = useTestTargets({ sharedRepository: false });
const home = () => ({ home: targets.home.path, timeoutMs: 120_000 });
let browser: Browser;
let scratch: { path: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  browser = await launchChromium();
  scratch = await dir({ unsafeCleanup: true, prefix: 'statecraft-page' });
  await mkdir(SCREENSHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await scratch?.cleanup();
});

interface Shown {
  runId: string;
  outcome: string;
  page?: { path: string; bytes: number };
  artifacts: { stream: { path: string }; stderr: { path: string } };
  acceptance: { receiptFile: { path: string } | 'none' } | 'not-recorded';
}

/** A run through the built CLI: its run id. */
async function runOf(repository: string, args: readonly string[]): Promise<string> {
  const run = await runStatecraft(['run', repository, ...args, '--json'], home());
  return parseJson<{ runId: string }>(run).runId;
}

/** `run show --html -o <file> --json`: its exit code and answer. */
async function writePage(repository: string, runId: string, name: string): Promise<{ exitCode: number; shown: Shown; path: string }> {
  const path = join(scratch.path, `${name}.html`);
  const show = await runStatecraft(['run', 'show', repository, runId, '--html', '-o', path, '--json'], home());
  const shown = parseJson<Shown>(show);
  expect(shown.page?.path).toBe(path);
  return { exitCode: show.exitCode, shown, path };
}

const text = async (page: Page, selector: string) => ((await page.locator(selector).textContent()) ?? '').trim();

describe("the reviewer's page, rendered in a real browser with no network (issue 32 item 6)", () => {
  it('an accepted write: verdict, outcome beside the claim, timeline, diff, the check, posture, and every kept file matching its record', async () => {
    const repository = await repositoryWithSuite(targets, { checks: ['grep -qx 42 answer.txt'] });
    const runId = await runOf(repository.path, ['--adapter', 'fixture', '--accept', '--prompt', writePrompt('write', 'answer.txt', '42')]);
    const { exitCode, shown, path } = await writePage(repository.path, runId, 'accepted');
    expect(exitCode).toBe(0);
    expect(shown.page?.bytes).toBe((await readFile(path)).length);
    const { page, others, close } = await openOffline(browser, path);
    try {
      expect(await text(page, '#outcome .value')).toBe('completed');
      expect(await text(page, '#claim .value')).toBe('success');
      expect(await text(page, '#verdict .value')).toBe('accepted');
      expect(await page.locator('ol.timeline li').allTextContents()).toEqual(
        expect.arrayContaining([expect.stringContaining('tool call: Write'), expect.stringContaining('answer.txt')]),
      );
      expect(await page.locator('ol.timeline li.refusal').count()).toBe(0);
      expect(await text(page, '#diff pre.diff')).toContain('+42');
      expect(await text(page, '#check-1 h3.check-head')).toContain('grep -qx 42 answer.txt');
      expect(await text(page, '#check-1 .exit-code')).toBe('0');
      expect(await text(page, '#boundary')).toContain('bubblewrap');
      expect(await text(page, '#receipt-signature')).toBe('unsigned');
      const marks = await fileMarks(page);
      expect(Object.keys(marks)).toEqual(['request', 'prompt', 'stream', 'stderr', 'result', 'check 1 stdout', 'check 1 stderr', 'receipt']);
      for (const mark of Object.values(marks)) expect(mark).toEqual({ state: 'matches', words: 'matches' });
      expect(await text(page, '#digest-summary')).toBe('8 of 8 embedded files match their records');
      await page.screenshot({ path: join(SCREENSHOTS, 'accepted.png'), fullPage: true });
      await page.emulateMedia({ media: 'print' });
      await page.screenshot({ path: join(SCREENSHOTS, 'accepted-print.png'), fullPage: true });
      expect(others).toEqual([]);
    } finally {
      await close();
    }

    // A Sigstore bundle beside the receipt is said to be there, and not to have been verified.
    if (shown.acceptance === 'not-recorded' || shown.acceptance.receiptFile === 'none') throw new Error('no receipt');
    await writeFile(join(shown.acceptance.receiptFile.path, '..', 'receipt.sigstore.json'), '{}\n');
    const signed = await writePage(repository.path, runId, 'signed');
    const opened = await openOffline(browser, signed.path);
    try {
      expect(await text(opened.page, '#receipt-signature')).toMatch(/^signature present, not verified here \(.*receipt\.sigstore\.json\)$/);
    } finally {
      await opened.close();
    }
  });

  it('a refused attempt: the refusal marked in the timeline, the outcome beside a claim of success, not judged', async () => {
    const repository = await targets.fresh();
    const runId = await runOf(repository.path, ['--adapter', 'fixture', '--prompt', 'scenario: refuse']);
    const { exitCode, path } = await writePage(repository.path, runId, 'refused');
    // run show's exit: the attempt did not complete; the page is written all the same.
    expect(exitCode).toBe(1);
    const { page, others, close } = await openOffline(browser, path);
    try {
      expect(await text(page, '#outcome .value')).toBe('refused');
      expect(await text(page, '#claim .value')).toBe('success');
      expect(await text(page, '#verdict .value')).toBe('not-attempted');
      // The outcome is not a finding about the evidence: the kept files of a refusal hold.
      expect(await text(page, '#evidence .value')).toBe('holds');
      const refusals = page.locator('ol.timeline li.refusal');
      expect(await refusals.count()).toBe(1);
      expect(await refusals.first().textContent()).toMatch(/REFUSED\s*refused: Bash[\s\S]*git push/);
      expect(await page.locator('ol.timeline li').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('I could not push')]));
      expect(await text(page, '#diff')).toContain('no candidate');
      for (const mark of Object.values(await fileMarks(page))) expect(mark.state).toBe('matches');
      await page.screenshot({ path: join(SCREENSHOTS, 'refused.png'), fullPage: true });
      expect(others).toEqual([]);
    } finally {
      await close();
    }
  });

  it('a failing check: its command, exit code and both outputs; without -o the page goes to the default path, and -o - writes the same bytes to stdout', async () => {
    const repository = await repositoryWithSuite(targets, { checks: ['grep -qx 42 answer.txt', 'grep -H 42 answer.txt missing.txt'] });
    const runId = await runOf(repository.path, ['--adapter', 'fixture', '--accept', '--prompt', writePrompt('write', 'answer.txt', '42')]);
    const here = await dir({ unsafeCleanup: true, prefix: 'statecraft-page-cwd' });
    try {
      const show = await runStatecraft(['run', 'show', repository.path, runId, '--html'], { ...home(), cwd: here.path });
      expect(show.exitCode).toBe(1);
      const path = join(here.path, `statecraft-${runId}-attempt-1.html`);
      expect(show.stdout).toContain(path);
      const piped = await runStatecraft(['run', 'show', repository.path, runId, '--html', '-o', '-'], home());
      expect(piped.stdout).toBe(await readFile(path, 'utf8'));
      const { page, others, close } = await openOffline(browser, path);
      try {
        expect(await text(page, '#outcome .value')).toBe('failed');
        expect(await text(page, '#verdict .value')).toBe('failed');
        expect(await text(page, '#check-2 h3.check-head')).toContain('grep -H 42 answer.txt missing.txt');
        expect(await text(page, '#check-2 .exit-code')).toBe('2');
        expect(await text(page, '#check-2')).toContain('answer.txt:42');
        expect(await text(page, '#check-2')).toContain('missing.txt: No such file or directory');
        for (const mark of Object.values(await fileMarks(page))) expect(mark.state).toBe('matches');
        expect(others).toEqual([]);
      } finally {
        await close();
      }
    } finally {
      await here.cleanup();
    }
  });

  it('a file that is not what its record holds is marked as not matching: bytes altered in a copy of the page, and a kept file altered before rendering', async () => {
    const repository = await targets.fresh();
    const runId = await runOf(repository.path, ['--adapter', 'fixture', '--prompt', 'scenario: complete']);
    const { shown, path } = await writePage(repository.path, runId, 'honest');
    const html = await readFile(path, 'utf8');
    const id = /data-name="stream"[^>]*data-embedded="(kept-\d+)"/.exec(html)?.[1];
    const block = new RegExp(`(<script type="application/octet-stream" id="${id ?? 'none'}">)([^<]*)(</script>)`);
    const bytes = Buffer.from(block.exec(html)?.[2] ?? '', 'base64');
    expect(bytes.toString('utf8')).toContain('the work is done');
    const altered = Buffer.from(bytes.toString('utf8').replace('the work is done', 'the work is DONE'));
    const copy = join(scratch.path, 'altered-copy.html');
    await writeFile(
      copy,
      html.replace(block, (_all, open: string, _data: string, close: string) => `${open}${altered.toString('base64')}${close}`),
    );
    const opened = await openOffline(browser, copy);
    try {
      const marks = await fileMarks(opened.page);
      expect(marks['stream']?.state).toBe('differs');
      expect(marks['stream']?.words).toMatch(/^does not match \(here: \d+ bytes, sha256 [0-9a-f]{64}\)$/);
      for (const [name, mark] of Object.entries(marks)) if (name !== 'stream') expect(mark.state).toBe('matches');
      expect(await text(opened.page, '#digest-summary')).toBe('4 of 5 embedded files match their records; 1 do not');
      await opened.page.screenshot({ path: join(SCREENSHOTS, 'altered-copy.png'), fullPage: true });
    } finally {
      await opened.close();
    }

    await appendFile(shown.artifacts.stderr.path, 'written after the record\n');
    const after = await writePage(repository.path, runId, 'stderr-altered');
    expect(after.exitCode).toBe(1);
    const reopened = await openOffline(browser, after.path);
    try {
      const marks = await fileMarks(reopened.page);
      expect(marks['stderr']?.state).toBe('differs');
      expect(marks['stream']?.state).toBe('matches');
      expect(await text(reopened.page, '#evidence .value')).toBe('findings');
    } finally {
      await reopened.close();
    }
  });

  it('markup in an event, a path, a diff and a check output is shown as text and never runs', async () => {
    const hostile = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">';
    const adapter = await createScriptedAdapter(
      'hostile-words',
      [
        'init();',
        `emit({ type: 'progress', kind: 'message', tools: [], detail: { text: ${JSON.stringify(hostile)} } });`,
        `emit({ type: 'progress', kind: 'tool-use', tools: ['Bash'], detail: { command: ${JSON.stringify(`echo '${hostile}'`)} } });`,
        "emit({ type: 'result', terminal: 'completed', claim: { status: '</script><script>window.__pwned=3</script>', isError: false, reason: 'completed', detail: {} }, turns: 1 });",
      ].join('\n'),
    );
    const repository = await repositoryWithSuite(targets, { checks: ['grep -rH pwned .'] });
    try {
      const scripted = await runOf(repository.path, ['--adapter', adapter.executable, '--prompt', 'hi']);
      const written = await runOf(repository.path, [
        '--adapter',
        'fixture',
        '--accept',
        '--prompt',
        writePrompt('write', 'a<img src=x onerror=window.__pwned=4>.txt', '<script>window.__pwned=5</script>'),
      ]);
      for (const [runId, name] of [
        [scripted, 'hostile-event'],
        [written, 'hostile-diff'],
      ] as const) {
        const { path } = await writePage(repository.path, runId, name);
        const { page, others, close } = await openOffline(browser, path);
        try {
          await page.waitForTimeout(300);
          expect(await page.evaluate<string>('typeof window.__pwned')).toBe('undefined');
          expect(await page.locator('img').count()).toBe(0);
          expect(await page.locator('script:not([type="application/octet-stream"])').count()).toBe(1);
          if (name === 'hostile-event') {
            await expect(page.getByText(hostile, { exact: true }).isVisible()).resolves.toBe(true);
            expect(await text(page, '#claim .value')).toBe('</script><script>window.__pwned=3</script>');
          } else {
            expect(await text(page, '#diff pre.diff')).toContain('+<script>window.__pwned=5</script>');
            expect(await text(page, '#diff table')).toContain('a<img src=x onerror=window.__pwned=4>.txt');
            expect(await text(page, '#check-1')).toContain('<script>window.__pwned=5</script>');
            expect(await page.locator('ol.timeline li').allTextContents()).toEqual(
              expect.arrayContaining([expect.stringContaining('a<img src=x onerror=window.__pwned=4>.txt')]),
            );
          }
          for (const mark of Object.values(await fileMarks(page))) expect(mark.state).toBe('matches');
          await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
          expect(others).toEqual([]);
        } finally {
          await close();
        }
      }
    } finally {
      await adapter.remove();
    }
  });

  it('a kept file past the bound is carried cut, and said to be: its digest is not recomputed in the page; the timeline is bounded', async () => {
    const line = 'x'.repeat(1024 * 1024);
    const adapter = await createScriptedAdapter(
      'long-stream',
      [
        'init();',
        `for (let i = 0; i < 5; i += 1) emit({ type: 'progress', kind: 'message', tools: [], detail: { text: ${JSON.stringify(line)} } });`,
        "for (let i = 0; i < 5100; i += 1) emit({ type: 'progress', kind: 'message', tools: [], detail: { text: 'step ' + i } });",
        "emit({ type: 'refusal', tool: 'Bash', verbatim: { command: 'git push' } });",
        "emit({ type: 'result', terminal: 'completed', claim: { status: 'success', isError: false, reason: 'completed', detail: {} }, turns: 1 });",
      ].join('\n'),
    );
    try {
      const repository = await targets.fresh();
      const runId = await runOf(repository.path, ['--adapter', adapter.executable, '--prompt', 'hi']);
      const { path, shown } = await writePage(repository.path, runId, 'cut');
      const { page, close } = await openOffline(browser, path);
      try {
        const marks = await fileMarks(page);
        expect(marks['stream']?.state).toBe('cut');
        // What it carries is the kept stream's own start, taken from the pass that digested it.
        const block = await page.locator('tr[data-name="stream"]').getAttribute('data-embedded');
        const carried = Buffer.from((await page.locator(`#${block ?? 'none'}`).textContent()) ?? '', 'base64');
        expect(carried.equals((await readFile(shown.artifacts.stream.path)).subarray(0, 4 * 1024 * 1024))).toBe(true);
        expect(await text(page, 'tr[data-name="stream"] .mark')).toMatch(
          /^cut at 4194304 of \d+ bytes: its digest cannot be recomputed here \(when the page was made, the whole file matched its record\)$/,
        );
        for (const [name, mark] of Object.entries(marks)) if (name !== 'stream') expect(mark.state).toBe('matches');
        // The timeline is bounded too: the first 5,000 lines, and what is left said with its refusals.
        expect(await page.locator('ol.timeline li').count()).toBe(5000);
        expect(await text(page, '#timeline-omitted')).toBe(
          'and 108 more lines, not listed here, 1 of them refusals: statecraft run log lists them, and the kept stream has them all',
        );
        expect((await readFile(path)).length).toBeLessThan(12 * 1024 * 1024);
      } finally {
        await close();
      }
    } finally {
      await adapter.remove();
    }
  });
  // Last: qualifying the fixture makes every later fixture attempt of this home qualified.
  it('a qualified adapter: the qualification, and its signature said present only when a bundle lies beside its record', async () => {
    const qualified = await runStatecraft(['qualify', '--fixture', '--json'], home());
    expect(qualified.exitCode, qualified.stderr).toBe(0);
    const repository = await targets.fresh();
    const runId = await runOf(repository.path, ['--adapter', 'fixture', '--prompt', 'scenario: complete']);
    const signature = async (name: string) => {
      const { path } = await writePage(repository.path, runId, name);
      const { page, others, close } = await openOffline(browser, path);
      try {
        expect(await text(page, '#qualification')).toMatch(/^qualified: fixture 1\.0\.0 /);
        expect(others).toEqual([]);
        return await text(page, '#qualification-signature');
      } finally {
        await close();
      }
    };
    expect(await signature('qualified-unsigned')).toBe('unsigned');
    const records = join(targets.home.path, 'qualifications');
    const [record] = (await readdir(records)).filter((name) => name.endsWith('.json'));
    await writeFile(join(records, (record ?? '').replace(/\.json$/, '.sigstore.json')), '{}\n');
    expect(await signature('qualified-signed')).toMatch(/^signature present, not verified here \(.*\.sigstore\.json\)$/);
  });
});
