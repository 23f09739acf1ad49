import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AcceptanceAnswer, repositoryWithSuite, writePrompt } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// Inside the boundary the operator's home is hidden, so their git identity is carried into the
// checks' TMPDIR (GIT_CONFIG_GLOBAL), for checks that commit. That TMPDIR is emptied between
// checks (an earlier check must leave the next nothing): the identity is written again each time.

const targets = useTestTargets({ sharedRepository: false });
const scratch = scratchDirectories();
const EMAIL = 'operator@example.invalid';
const READS_IDENTITY = `sh -c 'test "$(git config --global user.email)" = ${EMAIL}'`;

describe("the operator's git identity reaches every check, not only the first", () => {
  it('three checks that each read it: all exit 0, and the candidate reads accepted', async () => {
    const home = await scratch.make('statecraft-operator-home');
    await writeFile(join(home, '.gitconfig'), `[user]\n\tname = The Operator\n\temail = ${EMAIL}\n`);
    const checks = [READS_IDENTITY, READS_IDENTITY, READS_IDENTITY];
    const repository = await repositoryWithSuite(
      targets,
      { checks },
      {
        '.statecraft/environment.json': `${JSON.stringify({ project: { commands: ['sh', 'git', 'test'] }, acceptance: { checks } })}\n`,
      },
    );
    const options = { home: targets.home.path, env: { HOME: home, STATECRAFT_BOUNDARY: 'bwrap' } };
    const run = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', 'answer.txt', 'yes'), '--json'], options);
    expect(run.exitCode, run.stderr).toBe(0);
    const { runId } = parseJson<{ runId: string }>(run);
    const accepted = await runStatecraft(['accept', repository.path, runId, '--json'], { ...options, timeoutMs: 120_000 });
    const acceptance = parseJson<AcceptanceAnswer>(accepted);
    expect(acceptance.checks.map((check) => check.exitCode)).toEqual([0, 0, 0]);
    expect(acceptance.verdict).toBe('accepted');
  });
});
