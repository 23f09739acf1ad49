import { mkdir, rename, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryWithSuite, runThenAccept } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';

// R13.5, R13.4: an authority entry that is a symbolic link at the base protects only the link. A
// candidate that rewrites the test behind `tests -> testdata` changes no path under `tests/`, and
// would be accepted on the word of a test it rewrote. So does a link
// below the entry: `tests/check.sh -> ../lib/check.sh` under an authority of `tests/`.

const targets = useTestTargets({ sharedRepository: false });

interface Acceptance {
  verdict: string;
  reason: string;
  explanation: string;
  checks: unknown[];
  receipt: unknown;
}

/** The test behind the link: it passes only once the candidate has made it lenient. */
const CHECK = 'grep -q lenient tests/mode.txt';

/** A base whose `tests` is a committed link to `testdata`, which holds the test's data. */
async function repositoryWithLinkedTests(authority: string[]) {
  const repository = await repositoryWithSuite(targets, { checks: [CHECK], authority }, { 'testdata/mode.txt': 'strict\n' });
  await symlink('testdata', join(repository.path, 'tests'));
  await repository.git('add', 'tests');
  await repository.git('commit', '--quiet', '-m', 'tests is a link to testdata');
  return repository;
}

describe('an authority entry that is a symbolic link at the base (R13.5)', () => {
  it.each([
    ['is the link', ['tests/']],
    ['lies below the link', ['tests/mode.txt']],
  ])('is not judged on when the entry %s: no-acceptance naming the link and where it points, no receipt, exit 1', async (_, authority) => {
    const repository = await repositoryWithLinkedTests(authority);
    // The candidate rewrites the file behind the link: the check then passes.
    const { exitCode, acceptance } = await runThenAccept<Acceptance>(repository, targets.home.path, 'lenient', 'testdata/mode.txt');
    expect(acceptance).toMatchObject({ verdict: 'no-acceptance', reason: 'policy-unreadable', checks: [], receipt: null });
    expect(exitCode).toBe(1);
    expect(acceptance.explanation).toContain(`"${authority[0] ?? ''}"`);
    expect(acceptance.explanation).toContain('symbolic link tests -> testdata');
    expect(acceptance.explanation).toContain('declare the path it points to');
  });

  it('is read from the base tree, not the working tree: a link only in the checkout is not one, and a link only at the base still is', async () => {
    // A real directory at the base, a link in the operator's checkout only: judged as usual, and the rewrite of the test is caught.
    const real = await repositoryWithSuite(targets, { checks: [CHECK], authority: ['tests/'] }, { 'tests/mode.txt': 'strict\n' });
    await rename(join(real.path, 'tests'), join(real.path, 'testdata-moved'));
    await symlink('testdata-moved', join(real.path, 'tests'));
    const judged = await runThenAccept<Acceptance>(real, targets.home.path, 'lenient', 'tests/mode.txt');
    expect(judged.acceptance).toMatchObject({ verdict: 'authority-change', reason: 'authority-touched' });
    // A link at the base, a real directory in the checkout: still not judged on.
    const linked = await repositoryWithLinkedTests(['tests/']);
    await rm(join(linked.path, 'tests'));
    await rename(join(linked.path, 'testdata'), join(linked.path, 'tests'));
    const refused = await runThenAccept<Acceptance>(linked, targets.home.path, 'lenient', 'testdata/mode.txt');
    expect(refused.acceptance).toMatchObject({ verdict: 'no-acceptance', reason: 'policy-unreadable' });
  });

  it('is not judged on when a link lies below the entry: no-acceptance naming the link and where it points, no receipt, exit 1', async () => {
    // The check lives at lib/check.sh and is reached through tests/check.sh; the candidate writes no answer.txt.
    const repository = await repositoryWithSuite(
      targets,
      { checks: ['sh tests/check.sh'], authority: ['tests/'] },
      { 'lib/check.sh': 'grep -q 42 answer.txt\n' },
    );
    await mkdir(join(repository.path, 'tests'));
    await symlink('../lib/check.sh', join(repository.path, 'tests', 'check.sh'));
    await repository.git('add', 'tests');
    await repository.git('commit', '--quiet', '-m', 'tests/check.sh is a link to lib/check.sh');
    // The candidate rewrites the check behind the link so that it passes on nothing.
    const { exitCode, acceptance } = await runThenAccept<Acceptance>(repository, targets.home.path, 'exit 0', 'lib/check.sh');
    expect(acceptance).toMatchObject({ verdict: 'no-acceptance', reason: 'policy-unreadable', checks: [], receipt: null });
    expect(exitCode).toBe(1);
    expect(acceptance.explanation).toContain('the authority entry "tests/" holds the symbolic link tests/check.sh -> ../lib/check.sh');
    expect(acceptance.explanation).toContain('declare the path it points to');
    expect(acceptance.explanation).toContain('or remove the link');
  });
});
