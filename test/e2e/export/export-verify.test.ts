import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { lstat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { dir } from 'tmp-promise';
import { describe, expect, it } from 'vitest';
import { judgedRun, operatorRepository } from '../../fixtures/operator-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { createScriptedAdapter } from '../../fixtures/scripted-adapter.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// `statecraft export` then `statecraft verify` on a machine with no product home, end to end.

interface Account {
  runId: string;
  acceptance: 'not-recorded' | { verdict: string };
}
interface Exported {
  path: string;
  form: string;
  runId: string;
  files: number;
  notExported: unknown[];
}
interface Verified {
  holds: { check: string }[];
  findings: { file: string; field?: string; message: string }[];
}

const targets = useTestTargets({ sharedRepository: false });

/** A home that does not exist: verify must need none. */
const nowhere = () => ({ home: join(targets.home.path, 'no-such-home') });

describe('statecraft export and verify', () => {
  it('exports an accepted run as a tar and as a directory, and both verify with no product home', async () => {
    const repository = await operatorRepository(targets);
    const account = await judgedRun<Account>(targets, repository, 'forty-two');
    expect(account.acceptance !== 'not-recorded' && account.acceptance.verdict).toBe('accepted');
    const out = await dir({ unsafeCleanup: true });
    try {
      const tar = join(out.path, 'evidence.tar');
      const exported = await runStatecraft(['export', repository.path, account.runId, '-o', tar, '--json'], { home: targets.home.path });
      expect(exported.exitCode, exported.stderr).toBe(0);
      const answer = parseJson<Exported>(exported);
      expect(answer).toMatchObject({ path: tar, form: 'tar', runId: account.runId, notExported: [] });

      const directory = join(out.path, 'evidence/');
      expect((await runStatecraft(['export', repository.path, account.runId, '-o', directory], { home: targets.home.path })).exitCode).toBe(0);
      const files = listFiles(directory);
      expect(files).toEqual(
        expect.arrayContaining([
          'manifest.json',
          'chain/records.jsonl',
          'page.html',
          `attempts/${account.runId}/1/request.json`,
          `attempts/${account.runId}/1/prompt.txt`,
          `attempts/${account.runId}/1/stream.ndjson`,
          `attempts/${account.runId}/1/stderr.log`,
          `attempts/${account.runId}/1/result.json`,
          `attempts/${account.runId}/1/acceptance-1/receipt.json`,
          `attempts/${account.runId}/1/acceptance-1/check-1.stdout`,
        ]),
      );
      const manifest = JSON.parse(readFileSync(join(directory, 'manifest.json'), 'utf8')) as { files: { path: string; role: string; sha256: string }[] };
      expect(manifest.files.map((file) => file.path).sort()).toEqual(files.filter((file) => file !== 'manifest.json').sort());
      expect(answer.files).toBe(files.length);

      for (const bundle of [tar, directory]) {
        const verified = await runStatecraft(['verify', bundle, '--json'], nowhere());
        expect(verified.exitCode, verified.stdout + verified.stderr).toBe(0);
        const value = parseJson<Verified>(verified);
        expect(value.findings).toEqual([]);
        expect(value.holds.map((hold) => hold.check)).toEqual(expect.arrayContaining(['files', 'links', 'outcome', 'receipt']));
        const text = await runStatecraft(['verify', bundle], nowhere());
        expect(text.exitCode).toBe(0);
        expect(text.stdout).toContain('everything holds');
        for (const line of text.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
      }
      expect(existsSync(nowhere().home)).toBe(false);

      // An existing path is never written over: a file, nor a link, even one to nothing.
      const again = await runStatecraft(['export', repository.path, account.runId, '-o', tar], { home: targets.home.path });
      expect(again.exitCode).toBe(2);
      expect(again.stderr).toContain('already exists');
      for (const [name, to] of [
        ['dangling.tar', join(out.path, 'nothing-here')],
        ['dangling-directory/', join(out.path, 'nothing-there')],
      ] as const) {
        const link = join(out.path, name);
        await symlink(to, link.replace(/\/$/, ''));
        const over = await runStatecraft(['export', repository.path, account.runId, '-o', link], { home: targets.home.path });
        expect(over.exitCode, over.stderr).toBe(2);
        expect(over.stderr).toContain('already exists');
        expect((await lstat(link.replace(/\/$/, ''))).isSymbolicLink()).toBe(true);
        expect(existsSync(to)).toBe(false);
      }
      // Where nothing can be made, the failure names the place asked for, not a staging name.
      const unmade = await runStatecraft(['export', repository.path, account.runId, '-o', '/proc/statecraft-nope/'], { home: targets.home.path });
      expect(unmade.exitCode, unmade.stderr).toBe(4);
      expect(unmade.stderr).toMatch(/^statecraft: \/proc\/statecraft-nope\/?: /);
    } finally {
      await out.cleanup();
    }
  });
});

describe('the page an export carries', () => {
  it('digests the kept files and leaves classifying the stream to verify, and says so; run show --html still classifies it', async () => {
    const repository = await operatorRepository(targets);
    const account = await judgedRun<Account>(targets, repository, 'forty-two');
    const out = await dir({ unsafeCleanup: true });
    try {
      const directory = join(out.path, 'evidence/');
      const exported = await runStatecraft(['export', repository.path, account.runId, '-o', directory], { home: targets.home.path });
      expect(exported.exitCode, exported.stderr).toBe(0);
      const page = readFileSync(join(directory, 'page.html'), 'utf8');
      expect(evidenceCard(page)).toBe(
        'evidence holds every kept file as the chain sealed it; the outcome is classified again from the stream by statecraft verify of the bundle, not by this page',
      );
      // verify classifies it from the bundle, as it always did.
      const verified = parseJson<Verified>(await runStatecraft(['verify', directory, '--json'], nowhere()));
      expect(verified.holds.map((hold) => hold.check)).toContain('outcome');

      const shown = join(out.path, 'shown.html');
      const show = await runStatecraft(['run', 'show', repository.path, account.runId, '--html', '-o', shown], { home: targets.home.path });
      expect(show.exitCode, show.stderr).toBe(0);
      expect(evidenceCard(readFileSync(shown, 'utf8'))).toBe('evidence holds every kept file as the chain sealed it, and the outcome its stream gives');
    } finally {
      await out.cleanup();
    }
  });
});

describe("the timeline of an export's page", () => {
  it('lists the first lines and reads no further, saying how far it read; run show --html still counts the rest', async () => {
    const adapter = await createScriptedAdapter(
      'long-timeline',
      [
        'init();',
        "for (let i = 0; i < 5100; i += 1) emit({ type: 'progress', kind: 'message', tools: [], detail: { text: 'step ' + i } });",
        "emit({ type: 'refusal', tool: 'Bash', verbatim: { command: 'git push' } });",
        "emit({ type: 'result', terminal: 'completed', claim: { status: 'success', isError: false, reason: 'completed', detail: {} }, turns: 1 });",
      ].join('\n'),
    );
    const out = await dir({ unsafeCleanup: true });
    try {
      const repository = await targets.fresh();
      const run = await runStatecraft(['run', repository.path, '--adapter', adapter.executable, '--prompt', 'hi', '--json'], { home: targets.home.path });
      const { runId, artifacts } = parseJson<{ runId: string; artifacts: { stream: { path: string } } }>(run);
      const stream = readFileSync(artifacts.stream.path);
      // The first 5,000 lines: the init and 4,999 progress events, each with its newline.
      const listed = stream.toString('utf8').split('\n').slice(0, 5000).join('\n').length + 1;

      const directory = join(out.path, 'evidence/');
      const exported = await runStatecraft(['export', repository.path, runId, '-o', directory], { home: targets.home.path });
      expect(exported.exitCode, exported.stderr).toBe(0);
      const page = readFileSync(join(directory, 'page.html'), 'utf8');
      expect(page.match(/<li class="event /g)).toHaveLength(5000);
      expect(omittedNote(page)).toBe(
        `and the rest of the stream, not read into lines for this page: the lines listed are its first ${listed} of ${stream.length} bytes, and the refusals after them are not counted here (the outcome card gives the record's count); statecraft verify of this bundle reads every line, statecraft run log lists them, and the kept stream has them all`,
      );
      expect(parseJson<Verified>(await runStatecraft(['verify', directory, '--json'], nowhere())).holds.map((hold) => hold.check)).toContain('outcome');

      const shown = join(out.path, 'shown.html');
      // Exit 1: a refused attempt; the page is written all the same.
      const show = await runStatecraft(['run', 'show', repository.path, runId, '--html', '-o', shown], { home: targets.home.path });
      expect(show.exitCode, show.stderr).toBe(1);
      expect(omittedNote(readFileSync(shown, 'utf8'))).toBe(
        'and 103 more lines, not listed here, 1 of them refusals: statecraft run log lists them, and the kept stream has them all',
      );
    } finally {
      await out.cleanup();
      await adapter.remove();
    }
  });
});

/** The words of the note that says what the timeline leaves out. */
function omittedNote(page: string): string {
  return /<p class="note" id="timeline-omitted">([^<]*)<\/p>/.exec(page)?.[1]?.replace(/&#39;/g, "'") ?? '';
}

/** The evidence card's words, markup removed. */
function evidenceCard(page: string): string {
  const card = /<div class="card" id="evidence">([\s\S]*?)<\/p><\/div>/.exec(page);
  return (card?.[1] ?? '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function listFiles(root: string, under = ''): string[] {
  return readdirSync(join(root, under), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(root, join(under, entry.name)) : [join(under, entry.name)],
  );
}
