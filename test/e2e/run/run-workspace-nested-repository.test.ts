import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { createScriptedAdapter } from '../../fixtures/scripted-adapter.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// Hostile pass (hostile-b): the agent makes a repository of its own in a subdirectory of its
// workspace — its `.git/config` naming a `core.fsmonitor` command — and leaves a file in it
// modified. Left untracked, the operator's `git status` in the workspace never enters it. But
// statecraft commits the candidate with `git add -A`, which records the subdirectory as a gitlink
// in the workspace's index; from then on the operator's plain `git status` in the workspace path
// `run` printed checks that "submodule" for changes by running git inside it, which obeys the
// agent's configuration: the agent's command runs as the operator, outside any boundary, after
// the attempt. `doctor` names nothing.

const targets = useTestTargets({ sharedRepository: false });
const scratch = scratchDirectories();

function nestedRepositoryBody(marker: string): string {
  const hook = `touch '${marker}'; false`;
  return [
    "const { execFileSync } = require('node:child_process');",
    "const fs = require('node:fs');",
    'init();',
    "const git = (cwd, ...args) => execFileSync('git', ['-c', 'user.name=agent', '-c', 'user.email=agent@example.invalid', ...args], { cwd, encoding: 'utf8' });",
    "fs.mkdirSync('vendored');",
    "git('vendored', 'init', '--quiet');",
    "fs.writeFileSync('vendored/file.txt', 'one\\n');",
    "git('vendored', 'add', 'file.txt');",
    "git('vendored', 'commit', '--quiet', '-m', 'the agent\\'s own repository');",
    `fs.appendFileSync('vendored/.git/config', '[core]\\n\\tfsmonitor = ' + JSON.stringify(${JSON.stringify(hook)}) + '\\n');`,
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

describe('a repository the agent makes inside its workspace runs nothing as the operator after the attempt (hostile-b)', () => {
  it("the operator's git status in the workspace runs no command the agent's nested repository names; doctor names the workspace otherwise", async () => {
    const repository = await targets.fresh();
    const marker = join(await scratch.make('statecraft-nested-hook'), 'ran');
    const adapter = await createScriptedAdapter('nested-repository', nestedRepositoryBody(marker));
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
