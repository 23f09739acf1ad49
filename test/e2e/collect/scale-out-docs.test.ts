import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runStatecraft } from '../../fixtures/statecraft-cli.js';

// docs/scale-out.md's two files: each is YAML (a light check: no tabs, indentation in steps of two,
// every line a key, a list item, a comment or a block scalar's text), each is shown whole in the
// page, and every statecraft command in them is a verb that exists, with options it has.

const docs = fileURLToPath(new URL('../../../docs/', import.meta.url));
const FILES = ['scale-out/github-actions.yml', 'scale-out/kubernetes-indexed-job.yaml'];

/** The problems a light reading finds: each a line number and what is wrong with it. */
function yamlProblems(text: string): string[] {
  const problems: string[] = [];
  let block: number | undefined;
  text.split('\n').forEach((line, index) => {
    const number = index + 1;
    if (line.includes('\t')) {
      problems.push(`${number}: a tab`);
      return;
    }
    if (line.trim() === '') return;
    const indent = line.length - line.trimStart().length;
    if (block !== undefined && indent >= block) return;
    block = undefined;
    const body = line.trim();
    if (indent % 2 !== 0) problems.push(`${number}: indented by ${indent}`);
    if (body.startsWith('#') || body === '---') return;
    const item = body.replace(/^(- )+/, '');
    if (/^[|>]-?$/.test(item) || /: [|>]-?$/.test(item)) block = indent + 1;
    if (item !== body && !/^[^:]+: |^[^:]+:$/.test(item)) return;
    if (!/^("[^"]+"|[A-Za-z0-9_.${}\-/ ]+):( .*)?$/.test(item)) problems.push(`${number}: not a key, a list item or a comment: ${body}`);
  });
  return problems;
}

/** The `statecraft <verb> …` commands in a file's commands (not its comments, nor a page's prose), each with the long options it gives. */
function commands(text: string, page = false): { verb: string; options: string[] }[] {
  const code = text
    .split('\n')
    .filter((line) => !line.trim().startsWith('#') && (!page || line.startsWith('    ')))
    .join('\n');
  const joined = code.replace(/\\\n\s*/g, ' ');
  return [...joined.matchAll(/statecraft ([a-z]+)([^\n]*)/g)].map((match) => ({
    verb: match[1] ?? '',
    options: [...(match[2] ?? '').matchAll(/(?<![\w-])--[a-z-]+/g)].map((option) => option[0]),
  }));
}

describe('docs/scale-out', () => {
  it('each file is YAML with the parts the page promises, and is shown whole in the page', () => {
    const page = readFileSync(`${docs}scale-out.md`, 'utf8');
    for (const file of FILES) {
      const text = readFileSync(`${docs}${file}`, 'utf8');
      expect(yamlProblems(text), file).toEqual([]);
      expect(page, file).toContain(text);
    }
    const actions = readFileSync(`${docs}${FILES[0] ?? ''}`, 'utf8');
    for (const part of ['matrix:', 'upload-artifact', 'download-artifact', 'environment: land', 'statecraft collect', 'statecraft land'])
      expect(actions).toContain(part);
    const job = readFileSync(`${docs}${FILES[1] ?? ''}`, 'utf8');
    for (const part of ['completionMode: Indexed', 'JOB_COMPLETION_INDEX', 'type: Unconfined', 'procMount: Unmasked', 'secretName:', 'persistentVolumeClaim:'])
      expect(job).toContain(part);
  });

  it('the light reading finds what is not YAML', () => {
    expect(yamlProblems('a:\n\tb: 1\n')).toEqual(['2: a tab']);
    expect(yamlProblems('a:\n   b: 1\n')).toEqual(['2: indented by 3']);
    expect(yamlProblems('a:\n  just words\n')).toEqual(['2: not a key, a list item or a comment: just words']);
    expect(yamlProblems('run: |\n  anything at all: here\nb: 1\n')).toEqual([]);
  });

  it('every statecraft command in them is a verb that exists, with options it has', async () => {
    const page = readFileSync(`${docs}scale-out.md`, 'utf8');
    const used = [...FILES.flatMap((file) => commands(readFileSync(`${docs}${file}`, 'utf8'))), ...commands(page, true)];
    expect(new Set(used.map((command) => command.verb))).toEqual(new Set(['run', 'export', 'collect', 'land', 'keys', 'doctor']));
    const helps = new Map<string, string>();
    for (const { verb } of used)
      if (!helps.has(verb)) helps.set(verb, (await runStatecraft([verb, '--help'], { home: '/nonexistent-statecraft-home' })).stdout);
    for (const { verb, options } of used) for (const option of options) expect(helps.get(verb), `statecraft ${verb} ${option}`).toContain(option);
  });
});
