import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryWithSuite } from '../../fixtures/acceptance-repository.js';
import { useTestTargets, type SampleRepository } from '../../fixtures/sample-repository.js';
import { createScriptedAdapter } from '../../fixtures/scripted-adapter.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// `.statecraft/state/` in the operator's checkout is statecraft's own: it makes the agents'
// workspaces and the checks' worktrees there, and removes what it finds left there. The agent can
// put that directory in its candidate (a `.gitignore` that says `!/state/` undoes the exclude
// statecraft wrote), holding a link that stays inside the candidate's tree — `checks -> ../..`, the
// checkout's root — and so is accepted; once landed, the next `accept` took the checkout's entries
// for a killed judge's leftover worktrees and removed them, the operator's `.git` first. A
// candidate never holds statecraft's state directory, and statecraft never follows a link there.

const targets = useTestTargets({ sharedRepository: false });
const scratch = scratchDirectories();
const home = () => ({ home: targets.home.path, timeoutMs: 120_000 });

/** The agent: un-ignores the state directory and leaves `link` in it, pointing at `to`. */
async function plantingAdapter(link: string, to: string): Promise<string> {
  const body = [
    "const fs = require('node:fs');",
    "const path = require('node:path');",
    'init();',
    "fs.writeFileSync('.statecraft/.gitignore', '!/state/\\n');",
    `const link = ${JSON.stringify(link)};`,
    'fs.mkdirSync(path.dirname(link), { recursive: true });',
    `fs.symlinkSync(${JSON.stringify(to)}, link);`,
    "emit({ type: 'result', terminal: 'completed', claim: { status: 'success', isError: false, reason: 'completed', detail: {} }, turns: 1 });",
  ].join('\n');
  const adapter = await createScriptedAdapter('plants-state-link', body);
  scratch.keep(adapter);
  return adapter.executable;
}

/** What must survive whatever statecraft does next: the repository's git and the checkout's files. */
function entriesOf(repository: SampleRepository): string[] {
  return readdirSync(repository.path).sort();
}

interface Judged {
  runId: string;
  acceptance: { verdict: string; reason: string } | 'not-recorded';
}

describe("statecraft's state directory in the candidate's tree", () => {
  it('a candidate holding .statecraft/state (a link inside its tree) is never accepted, and land refuses it', async () => {
    const repository = await repositoryWithSuite(targets, { checks: ['true'] });
    const adapter = await plantingAdapter('.statecraft/state/checks', '../..');
    const run = await runStatecraft(['run', repository.path, '--adapter', adapter, '--prompt', 'plant', '--accept', '--json'], home());
    const judged = parseJson<Judged>(run);
    expect(judged.acceptance).not.toBe('not-recorded');
    expect(judged.acceptance !== 'not-recorded' && judged.acceptance.verdict).not.toBe('accepted');
    const landed = await runStatecraft(['land', repository.path, judged.runId], home());
    expect(landed.exitCode).toBe(2);
    expect(lstatSync(join(repository.path, '.statecraft', 'state', 'checks')).isDirectory()).toBe(true);
  });

  const planted: { name: string; plant: (repository: SampleRepository) => Promise<void> }[] = [
    {
      name: 'checks a link to the checkout',
      plant: async (repository) => {
        await mkdir(join(repository.path, '.statecraft', 'state'), { recursive: true });
        await symlink('../..', join(repository.path, '.statecraft', 'state', 'checks'));
      },
    },
    {
      name: 'workspaces a link to the checkout',
      plant: async (repository) => {
        await mkdir(join(repository.path, '.statecraft', 'state'), { recursive: true });
        await symlink('../..', join(repository.path, '.statecraft', 'state', 'workspaces'));
      },
    },
    {
      name: 'the state directory a link into the checkout',
      plant: async (repository) => {
        await mkdir(join(repository.path, 'elsewhere', 'checks'), { recursive: true });
        await writeFile(join(repository.path, 'elsewhere', 'checks', 'kept.txt'), 'the operator’s\n');
        await symlink('../elsewhere', join(repository.path, '.statecraft', 'state'));
      },
    },
  ];
  for (const { name, plant } of planted) {
    it(`a checkout whose state directory holds a link (${name}, as a landing made it): run, accept and prune refuse, naming it; nothing of the checkout is removed`, async () => {
      const repository = await repositoryWithSuite(targets, { checks: ['true'] });
      await plant(repository);
      await writeFile(join(repository.path, '.statecraft', '.gitignore'), '!/state/\n');
      await repository.git('add', '-A');
      await repository.git('commit', '--quiet', '-m', 'a landed candidate');
      const before = entriesOf(repository);
      const head = await repository.git('rev-parse', 'HEAD');

      const run = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--accept'], home());
      expect(entriesOf(repository)).toEqual(before);
      expect(run.exitCode, run.stdout).toBe(2);
      expect(run.stderr).toMatch(/\.statecraft\/state\S* is a symbolic link/);
      expect(await repository.git('rev-parse', 'HEAD')).toBe(head);
      if (existsSync(join(repository.path, 'elsewhere')))
        expect(await readFile(join(repository.path, 'elsewhere', 'checks', 'kept.txt'), 'utf8')).toBe('the operator’s\n');

      const pruned = await runStatecraft(['prune', repository.path], home());
      expect(pruned.exitCode).not.toBe(1);
      expect(entriesOf(repository)).toEqual(before);
    });
  }

  it('a run made before the link was committed: accept refuses it, naming the link, and prune too; .git and the checkout stay', async () => {
    const repository = await repositoryWithSuite(targets, { checks: ['true'] });
    const run = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: write\npath: a.txt\ntext: a', '--json'], home());
    expect(run.exitCode, run.stderr).toBe(0);
    const { runId } = parseJson<Judged>(run);
    await rm(join(repository.path, '.statecraft', 'state', 'checks'), { recursive: true, force: true });
    await symlink('../..', join(repository.path, '.statecraft', 'state', 'checks'));
    await writeFile(join(repository.path, '.statecraft', '.gitignore'), '!/state/\n!/state/checks\n/state/workspaces/\n');
    await repository.git('add', '-A');
    await repository.git('commit', '--quiet', '-m', 'a landed candidate');
    const before = entriesOf(repository);

    const accepted = await runStatecraft(['accept', repository.path, runId], home());
    expect(entriesOf(repository)).toEqual(before);
    expect(accepted.exitCode, accepted.stdout).toBe(2);
    expect(accepted.stderr).toContain(`${join(repository.path, '.statecraft', 'state', 'checks')} is a symbolic link (to "../..")`);
    const pruned = await runStatecraft(['prune', repository.path], home());
    expect(entriesOf(repository)).toEqual(before);
    expect(pruned.exitCode, pruned.stdout).toBe(2);
    expect(pruned.stderr).toContain('is a symbolic link');
  });
});
