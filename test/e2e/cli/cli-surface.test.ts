import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProductHome, createSampleRepository, type SampleRepository } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft, type CliRun } from '../../fixtures/statecraft-cli.js';

/**
 * The command surface every verb shares (R11): help that teaches, usage errors as exit 3, and —
 * with --json — one JSON document on stdout however the verb ended, the sentence on stderr.
 */

let home: { path: string; remove: () => Promise<void> };
let repository: SampleRepository;
beforeAll(async () => {
  home = await createProductHome();
  repository = await createSampleRepository();
});
afterAll(async () => {
  await repository.remove();
  await home.remove();
});

const statecraft = (args: readonly string[]): Promise<CliRun> => runStatecraft(args, { home: home.path });

/** Every verb, with arguments that are otherwise well-formed, so only the option under test can be wrong. */
const VERBS: { verb: string[]; args: () => string[] }[] = [
  { verb: ['qualify'], args: () => ['--fixture'] },
  { verb: ['qualifications', 'list'], args: () => [] },
  { verb: ['qualifications', 'show'], args: () => ['some-id'] },
  { verb: ['qualifications', 'check'], args: () => ['./some-adapter'] },
  { verb: ['run'], args: () => [repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete'] },
  { verb: ['run', 'list'], args: () => [repository.path] },
  { verb: ['run', 'show'], args: () => [repository.path, '20261130T000000Z-0a0b0c'] },
  { verb: ['run', 'diff'], args: () => [repository.path, '20261130T000000Z-0a0b0c'] },
  { verb: ['run', 'log'], args: () => [repository.path, '20261130T000000Z-0a0b0c'] },
  { verb: ['env', 'plan'], args: () => [repository.path] },
  { verb: ['doctor'], args: () => [] },
  { verb: ['accept'], args: () => [repository.path, '20261130T000000Z-0a0b0c'] },
];

/** Commander wraps help at 80 columns when stdout is not a terminal, as here. */
const HELP_WIDTH = 80;

/** The description: the paragraphs between the usage line and the first section heading. */
function descriptionParagraphs(help: string): string[][] {
  const lines = help.split('\n');
  const end = lines.findIndex((line, index) => index > 0 && /^[A-Z][A-Za-z ]*:$/.test(line));
  const paragraphs: string[][] = [[]];
  for (const line of lines.slice(1, end === -1 ? undefined : end)) {
    if (line.trim() === '') paragraphs.push([]);
    else paragraphs.at(-1)?.push(line);
  }
  return paragraphs.filter((paragraph) => paragraph.length > 0);
}

describe('every verb teaches in its --help and refuses an unknown option as a usage error (R11)', () => {
  describe.each(VERBS.map((entry) => ({ ...entry, name: entry.verb.join(' ') })))('statecraft $name', ({ verb, args }) => {
    it('--help exits 0, offers --json, shows examples and says what the JSON holds (R11)', async () => {
      const help = await statecraft([...verb, '--help']);
      expect(help.exitCode).toBe(0);
      expect(help.stdout).toContain(`Usage: statecraft ${verb.join(' ')}`);
      expect(help.stdout).toContain('--json');
      expect(help.stdout).toMatch(/^Examples:$/m);
      expect(help.stdout).toMatch(new RegExp(`^  statecraft ${verb.join(' ')} `, 'm'));
      expect(help.stdout).toMatch(/^JSON: /m);
    });

    it('--help fits in 80 columns and its description is wrapped by commander, not broken by hand (R11)', async () => {
      const help = await statecraft([...verb, '--help']);
      for (const line of help.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(HELP_WIDTH);
      for (const paragraph of descriptionParagraphs(help.stdout)) {
        // Greedy wrapping: a line ends early only when the next word would not have fitted on it.
        paragraph.slice(0, -1).forEach((line, index) => {
          const nextWord = paragraph[index + 1]?.trim().split(' ')[0] ?? '';
          expect(line.length + 1 + nextWord.length, `a hand-made break after "${line}"`).toBeGreaterThan(HELP_WIDTH);
        });
      }
    });

    it('an unknown option exits 3 and names it; with --json, stdout is a usage document (R11)', async () => {
      const plain = await statecraft([...verb, ...args(), '--no-such-option']);
      expect(plain.exitCode).toBe(3);
      expect(plain.stderr).toContain('--no-such-option');
      expect(plain.stdout).toBe('');
      const json = await statecraft([...verb, ...args(), '--no-such-option', '--json']);
      expect(json.exitCode).toBe(3);
      expect(parseJson<{ usage: { message: string } }>(json).usage.message).toContain('--no-such-option');
    });
  });
});

interface Refused {
  refused: { message: string; next?: string };
}

describe('under --json a refusal is one JSON document on stdout, the sentence on stderr, exit 2 (R11)', () => {
  it('qualifications show of an id with no record refuses, naming the id and what to run next (R11, R3.4)', async () => {
    const shown = await statecraft(['qualifications', 'show', 'no-such-id', '--json']);
    expect(shown.exitCode).toBe(2);
    const { refused } = parseJson<Refused>(shown);
    expect(refused.message).toContain('no-such-id');
    expect(refused.next).toContain('statecraft qualifications list');
    expect(shown.stderr).toContain('refused: ');
    expect(shown.stderr).toContain('no-such-id');
    expect(shown.stderr).toContain('next: statecraft qualifications list');
  });

  it('qualifications show of an id that is not an id is a usage error, not a refusal (R11)', async () => {
    const shown = await statecraft(['qualifications', 'show', 'No_Such_Id', '--json']);
    expect(shown.exitCode).toBe(3);
    expect(parseJson<{ usage: { message: string } }>(shown).usage.message).toContain('No_Such_Id');
  });

  it('run show of a run the target has no record of refuses, with --json on the subcommand or on run (R11, R8)', async () => {
    for (const args of [
      ['run', 'show', repository.path, '20261130T000000Z-0a0b0c', '--json'],
      ['run', '--json', 'show', repository.path, '20261130T000000Z-0a0b0c'],
    ]) {
      const shown = await statecraft(args);
      expect(shown.exitCode, args.join(' ')).toBe(2);
      const { refused } = parseJson<Refused>(shown);
      expect(refused.message).toContain('20261130T000000Z-0a0b0c');
      expect(refused.next).toContain('statecraft run list');
      expect(shown.stderr).toContain('20261130T000000Z-0a0b0c');
    }
  });

  it.each([
    { name: 'qualify of a binary that does not exist', args: () => ['qualify', join(home.path, 'no-such-adapter'), '--json'] },
    { name: 'qualifications check of a binary with no manifest', args: () => ['qualifications', 'check', join(home.path, 'no-such-adapter'), '--json'] },
    { name: 'env plan of a target that is not a directory', args: () => ['env', 'plan', join(home.path, 'no-such-target'), '--json'] },
    {
      name: 'run of a target that is not a repository',
      args: () => ['run', join(home.path, 'no-such-target'), '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'],
    },
  ])('$name refuses with a refused document (R11)', async ({ args }) => {
    const answer = await statecraft(args());
    expect(answer.exitCode).toBe(2);
    expect(parseJson<Refused>(answer).refused.message).toContain('no-such-');
    expect(answer.stderr).toContain('no-such-');
  });

  it('run list and run show of a chain with a broken link refuse with a refused document (R11, R8.4)', async () => {
    const target = await createSampleRepository();
    try {
      const run = await runStatecraft(['run', target.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], { home: home.path });
      expect(run.exitCode).toBe(0);
      const account = parseJson<{ runId: string; records: { chain: string } }>(run);
      const bytes = await readFile(account.records.chain);
      const at = bytes.indexOf(Buffer.from('"attempt":1'));
      bytes[at + '"attempt":'.length] = 0x39;
      await writeFile(account.records.chain, bytes);
      for (const args of [
        ['run', 'list', target.path, '--json'],
        ['run', 'show', target.path, account.runId, '--json'],
      ]) {
        const answer = await statecraft(args);
        expect(answer.exitCode, args.join(' ')).toBe(2);
        expect(parseJson<Refused>(answer).refused.message).toContain('line 1');
        expect(answer.stderr).toContain('refused: ');
      }
    } finally {
      await target.remove();
    }
  });
});

describe('under --json a failure is one JSON document naming the path, exit 4 (R11)', () => {
  it('run with a prompt file that cannot be read fails with a failed document naming it (R11)', async () => {
    const missing = join(home.path, 'no-such-prompt.md');
    const answer = await statecraft(['run', repository.path, '--adapter', 'fixture', '--prompt-file', missing, '--json']);
    expect(answer.exitCode).toBe(4);
    expect(parseJson<{ failed: { path: string; message: string } }>(answer).failed).toMatchObject({
      path: missing,
      message: expect.stringContaining(missing) as unknown,
    });
    expect(answer.stderr).toContain(missing);
  });

  it('without --json a refusal prints nothing on stdout: the sentence is on stderr (R11)', async () => {
    const shown = await statecraft(['qualifications', 'show', 'no-such-id']);
    expect(shown.exitCode).toBe(2);
    expect(shown.stdout).toBe('');
    expect(shown.stderr).toContain('no-such-id');
  });
});

describe('--version prints the version package.json gives (R11)', () => {
  it('bare, answered before the CLI is loaded, and beside another word, answered by commander: the same version, exit 0', async () => {
    const { version } = JSON.parse(await readFile(new URL('../../../packages/cli/package.json', import.meta.url), 'utf8')) as { version: string };
    for (const words of [['--version'], ['-V'], ['--version', '--json']]) {
      const answer = await statecraft(words);
      expect({ words, exitCode: answer.exitCode, stdout: answer.stdout }).toEqual({ words, exitCode: 0, stdout: version });
    }
    expect((await statecraft(['--help'])).stdout).toContain('-V, --version');
  });
});
