import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { createScriptedAdapter } from '../../fixtures/scripted-adapter.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// The agent makes a repository of its own in a subdirectory of its workspace — its config naming
// a `core.fsmonitor` command — and leaves a file in it modified. Left untracked, the operator's
// `git status` in the workspace never enters it; committed by `git add -A` as a gitlink, it would:
// the operator's git would check that "submodule" by running git inside it, as the agent
// configured it, outside any boundary, after the attempt. Statecraft's commit leaves it out.

const targets = useTestTargets({ sharedRepository: false });
const scratch = scratchDirectories();

function nestedRepositoryBody(marker: string, gitFile: boolean): string {
  const hook = `touch '${marker}'; false`;
  return [
    "const { execFileSync } = require('node:child_process');",
    "const fs = require('node:fs');",
    'init();',
    "const git = (cwd, ...args) => execFileSync('git', ['-c', 'user.name=agent', '-c', 'user.email=agent@example.invalid', ...args], { cwd, encoding: 'utf8' });",
    "fs.mkdirSync('vendored');",
    // Its git directory in the workspace itself, or beside it, named by a `.git` file.
    gitFile ? "git('.', 'init', '--quiet', '--separate-git-dir', '.vendored-git', 'vendored');" : "git('vendored', 'init', '--quiet');",
    "fs.writeFileSync('vendored/file.txt', 'one\\n');",
    "git('vendored', 'add', 'file.txt');",
    "git('vendored', 'commit', '--quiet', '-m', 'the agent\\'s own repository');",
    `fs.appendFileSync(${JSON.stringify(gitFile ? '.vendored-git/config' : 'vendored/.git/config')}, '[core]\\n\\tfsmonitor = ' + JSON.stringify(${JSON.stringify(hook)}) + '\\n');`,
    // Modified after its commit: git has a reason to look inside.
    "fs.writeFileSync('vendored/file.txt', 'two\\n');",
    "emit({ type: 'result', terminal: 'completed', claim: { status: 'success', isError: false, reason: 'completed', detail: {} }, turns: 1 });",
  ].join('\n');
}

interface Account {
  runId: string;
  outcome: string;
  workspace: string;
}

describe('a repository the agent makes inside its workspace runs nothing as the operator after the attempt', () => {
  it.each([
    ['its git directory inside it', false],
    ['a .git file naming a git directory beside it', true],
  ])("the operator's git status in the workspace runs no command the agent's nested repository names (%s)", async (_, gitFile) => {
    const repository = await targets.fresh();
    const marker = join(await scratch.make('statecraft-nested-hook'), 'ran');
    const adapter = await createScriptedAdapter('nested-repository', nestedRepositoryBody(marker, gitFile));
    scratch.keep(adapter);
    const manifestFile = `${adapter.executable}.manifest.json`;
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as { requiresCommands: string[] };
    await writeFile(manifestFile, JSON.stringify({ ...manifest, requiresCommands: ['node', 'git'] }, null, 2));

    const run = await runStatecraft(['run', repository.path, '--adapter', adapter.executable, '--prompt', 'nest', '--json'], { home: targets.home.path });
    expect(run.exitCode, run.stderr).toBe(0);
    const account = parseJson<Account>(run);
    expect(account.outcome).toBe('completed');
    // Nothing ran while statecraft read and committed the workspace.
    expect(existsSync(marker)).toBe(false);

    // The operator, after the verb returned, in the workspace path it printed.
    await execa('git', ['status', '--porcelain'], {
      cwd: account.workspace,
      reject: false,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root' },
      extendEnv: false,
    });
    const ran = existsSync(marker);
    if (ran) {
      // If the product leaves the workspace so, doctor must at least name it.
      const doctor = await runStatecraft(['doctor', '--json'], { home: targets.home.path });
      const findings = parseJson<{ findings: { kind: string; path: string }[] }>(doctor).findings;
      expect(
        findings.some((finding) => finding.path === account.workspace),
        'doctor names no finding for the workspace',
      ).toBe(true);
    }
    expect(ran, "the operator's git status in the workspace ran the agent's core.fsmonitor command").toBe(false);
  });
});
