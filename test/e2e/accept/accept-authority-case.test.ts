import { describe, expect, it } from 'vitest';
import { repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// R13.5: a path that is the same file as an authority path on a case-insensitive file system
// (macOS and Windows by default) replaces it at checkout there; it touches the authority set.

const targets = useTestTargets({ sharedRepository: false });
const home = () => ({ home: targets.home.path });

describe('an authority path written in another case or Unicode form (R13.5)', () => {
  it.each([
    ['another case', 'TESTS/check.txt'],
    ['a decomposed Unicode form', 'te\u0301sts/check.txt'],
  ])('is authority-change when the candidate adds it in %s, whatever its suite says', async (_, added) => {
    const authority = added.startsWith('TESTS') ? 'tests/' : 't\u00e9sts/';
    const repository = await repositoryWithSuite(targets, { checks: ['true'], authority: [authority] }, { [`${authority}check.txt`]: 'strict\n' });
    const run = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', added, 'lenient'), '--json'], home());
    expect(run.exitCode).toBe(0);
    const runId = parseJson<{ runId: string }>(run).runId;
    const accepted = await runStatecraft(['accept', repository.path, runId, '--json'], { ...home(), timeoutMs: 120_000 });
    const acceptance = parseJson<{ verdict: string; authority: { touched: string[] }; receipt: unknown }>(accepted);
    expect(accepted.exitCode).toBe(1);
    expect(acceptance).toMatchObject({ verdict: 'authority-change', authority: { touched: [added] }, receipt: null });
  });
});
