import { describe, expect, it } from 'vitest';
import { repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// R13.5: `--spec foo` is looked up at `specs/foo/spec.md` first, then `specs/foo.md`. A candidate
// that adds the first while the base holds the second replaces the spec of every later run: it
// changes the authority set though it touches no path the lookup found at the base.

const targets = useTestTargets({ sharedRepository: false });

const SPEC = ['# Spec foo', '', 'Write the answer.', '', '## Verification', '', '```sh', 'true', '```', ''].join('\n');

describe('a candidate that adds a spec shadowing the one found at the base (R13.5)', () => {
  it('is authority-change, naming the shadowing path', async () => {
    const repository = await repositoryWithSuite(targets, {}, { 'specs/foo.md': SPEC });
    const prompt = writePrompt('write', 'specs/foo/spec.md', '## Verification');
    const run = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--spec', 'foo', '--prompt', prompt, '--accept', '--json'], {
      home: targets.home.path,
      timeoutMs: 120_000,
    });
    const account = parseJson<{ acceptance: { verdict: string; authority: { paths: string[]; touched: string[] }; receipt: unknown } }>(run);
    expect(account.acceptance).toMatchObject({ verdict: 'authority-change', authority: { touched: ['specs/foo/spec.md'] }, receipt: null });
    expect(account.acceptance.authority.paths).toEqual(expect.arrayContaining(['specs/foo/spec.md', 'specs/foo.md']));
    expect(run.exitCode).toBe(1);
  });
});
