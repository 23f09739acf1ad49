import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// R13.5, R13.3: the checks read the authority set's bytes as the base holds them. What decides
// the bytes git checks out — `.gitattributes` in any directory (`eol`, `ident`, a filter,
// `working-tree-encoding`), `.gitmodules`, the repository's own attributes and configuration —
// could change an authority file's bytes in the checks' worktree without the candidate touching
// it. A candidate changing any of those files is an authority change; a checkout that does not
// reproduce the authority set's bytes is not judged on them.

interface Acceptance {
  verdict: string;
  reason: string;
  explanation: string;
  checks: { command: string; exitCode: number | null }[];
  authority: 'not-recorded' | { paths: string[]; touched: string[] };
  receipt: object | null;
}

const targets = useTestTargets({ sharedRepository: false });

/** The base: an expected answer (LF) in the authority set, and an answer with CRLF, which the check compares byte for byte. */
async function baseRepository() {
  const declaration = { project: { commands: ['cmp'] }, acceptance: { checks: ['cmp answer.txt tests/expected.txt'], authority: ['tests/expected.txt'] } };
  return repositoryWithSuite(
    targets,
    {},
    { '.statecraft/environment.json': `${JSON.stringify(declaration)}\n`, 'tests/expected.txt': 'forty-two\n', 'answer.txt': 'forty-two\r\n' },
  );
}

async function judge(path: string, text: string, beforeAccept: (repository: string) => Promise<void> = () => Promise.resolve()) {
  const repository = await baseRepository();
  const home = { home: targets.home.path };
  const run = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', path, text), '--json'], home);
  expect(run.exitCode).toBe(0);
  const { runId } = parseJson<{ runId: string }>(run);
  await beforeAccept(repository.path);
  const judged = await runStatecraft(['accept', repository.path, runId, '--json'], { ...home, timeoutMs: 120_000 });
  return { exitCode: judged.exitCode, acceptance: parseJson<Acceptance>(judged) };
}

describe('what decides the bytes git checks out, for the authority set (R13.5)', () => {
  it('fails a candidate that changes nothing of it: the expected answer is read as the base holds it', async () => {
    const { exitCode, acceptance } = await judge('notes.txt', 'nothing');
    expect(acceptance.checks.map((check) => check.exitCode)).toEqual([1]);
    expect(acceptance).toMatchObject({ verdict: 'failed', reason: 'check-failed' });
    expect(exitCode).toBe(1);
  });

  for (const [path, text] of [
    ['.gitattributes', 'tests/expected.txt eol=crlf'],
    ['tests/.gitattributes', 'expected.txt eol=crlf'],
    ['lib/deep/.gitattributes', '* ident filter=anything'],
    ['.gitmodules', '[submodule "tests"] path = tests'],
  ] as const) {
    it(`is an authority change when the candidate adds ${path}`, async () => {
      const { exitCode, acceptance } = await judge(path, text);
      expect(acceptance).toMatchObject({ verdict: 'authority-change', reason: 'authority-touched', receipt: null });
      expect(acceptance.authority === 'not-recorded' ? [] : acceptance.authority.touched).toEqual([path]);
      expect(acceptance.explanation).toContain(path);
      expect(exitCode).toBe(1);
    });
  }

  for (const [what, change] of [
    ['info/attributes', (repository: string) => writeFile(join(repository, '.git', 'info', 'attributes'), 'tests/expected.txt eol=crlf\n')],
    ['core.autocrlf', (repository: string) => writeFile(join(repository, '.git', 'config'), '[core]\n\tautocrlf = true\n', { flag: 'a' })],
  ] as const) {
    it(`is not judged on authority bytes the repository's ${what} converts at checkout`, async () => {
      const { exitCode, acceptance } = await judge('notes.txt', 'nothing', change);
      expect(acceptance.checks).toEqual([]);
      expect(acceptance).toMatchObject({ verdict: 'authority-change', reason: 'authority-touched', receipt: null, authority: { touched: [] } });
      expect(acceptance.explanation).toContain('tests/expected.txt');
      expect(exitCode).toBe(1);
    });
  }
});
