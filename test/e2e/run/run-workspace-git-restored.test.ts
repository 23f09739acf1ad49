import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { processesWithArgument } from '../../fixtures/processes-with-argument.js';
import { useTestTargets, type SampleRepository } from '../../fixtures/sample-repository.js';
import { createScriptedAdapter } from '../../fixtures/scripted-adapter.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { STATECRAFT_BIN, parseJson, runStatecraft, statecraftEnvironment } from '../../fixtures/statecraft-cli.js';
import { until } from '../../fixtures/until.js';

// The agent writes its workspace, its `.git` pointer included. statecraft's own git never follows
// that pointer (it names the registered git directory), but the operator's does: the first
// `git status` in the workspace path `run` prints would run the `core.fsmonitor` of a git
// directory the agent made — as the operator, outside any boundary. After an attempt the
// workspace's git is what statecraft made, and `doctor` names any workspace where it is not.

const targets = useTestTargets({ sharedRepository: false });
const scratch = scratchDirectories();

type Plant = 'directory' | 'symlink' | 'file' | 'config-worktree' | 'commondir';

/**
 * The agent's code: a git directory of its own, `.planted` in the workspace (HEAD the workspace's,
 * the repository's objects as alternates, the real index), whose configuration runs `hook`; then,
 * by `plant`, the workspace's `.git` replaced by it (a directory, a symbolic link to it, a file
 * naming it), or — as only an agent without the boundary can — the registration's `config.worktree`
 * given the hook, or its `commondir` aimed at the planted directory. `hang`: runs on after, never
 * reporting its end.
 */
function plantingBody(plant: Plant, marker: string, hang = false): string {
  const hook = `touch '${marker}'; false`;
  return [
    "const { execFileSync } = require('node:child_process');",
    "const fs = require('node:fs');",
    "const path = require('node:path');",
    'init();',
    "const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).trim();",
    "const gitDir = git('rev-parse', '--absolute-git-dir');",
    "const objects = path.resolve(git('rev-parse', '--git-common-dir'), 'objects');",
    "const head = git('rev-parse', 'HEAD');",
    "const planted = path.resolve('.planted');",
    "for (const d of ['objects/info', 'refs/heads', 'info']) fs.mkdirSync(path.join(planted, d), { recursive: true });",
    "fs.writeFileSync(path.join(planted, 'HEAD'), head + '\\n');",
    "fs.writeFileSync(path.join(planted, 'objects/info/alternates'), objects + '\\n');",
    "fs.copyFileSync(path.join(gitDir, 'index'), path.join(planted, 'index'));",
    "fs.writeFileSync(path.join(planted, 'info/exclude'), '.planted\\n');",
    `const hook = ${JSON.stringify(hook)};`,
    'const config = `[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = ${JSON.stringify(hook)}\\n`;',
    "fs.writeFileSync(path.join(planted, 'config'), config);",
    `const plant = ${JSON.stringify(plant)};`,
    "if (plant === 'directory') { fs.rmSync('.git'); fs.renameSync(planted, '.git'); }",
    "if (plant === 'symlink') { fs.rmSync('.git'); fs.symlinkSync(planted, '.git'); }",
    "if (plant === 'file') fs.writeFileSync('.git', 'gitdir: .planted\\n');",
    "if (plant === 'config-worktree') fs.writeFileSync(path.join(gitDir, 'config.worktree'), config);",
    "if (plant === 'commondir') fs.writeFileSync(path.join(gitDir, 'commondir'), planted + '\\n');",
    hang
      ? 'setInterval(() => {}, 1000);'
      : "emit({ type: 'result', terminal: 'completed', claim: { status: 'success', isError: false, reason: 'completed', detail: {} }, turns: 1 });",
  ].join('\n');
}

async function plantingAdapter(plant: Plant, marker: string, hang = false): Promise<string> {
  const adapter = await createScriptedAdapter(`plants-${plant}`, plantingBody(plant, marker, hang));
  scratch.keep(adapter);
  // It runs git inside the sandbox: declared, as an agent's tools are.
  const manifestFile = `${adapter.executable}.manifest.json`;
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as { requiresCommands: string[] };
  await writeFile(manifestFile, JSON.stringify({ ...manifest, requiresCommands: ['node', 'git'] }, null, 2));
  return adapter.executable;
}

/** The operator's own git in the workspace, as they would run it after reading the path `run` printed. */
async function operatorGitStatus(workspace: string): Promise<void> {
  await execa('git', ['status', '--porcelain'], {
    cwd: workspace,
    reject: false,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root' },
    extendEnv: false,
  });
}

/** The workspace's `.git` as `git worktree add` wrote it: a file naming the registration, which names the workspace back. */
async function expectGitAsMade(repository: SampleRepository, workspace: string): Promise<void> {
  const dotGit = join(workspace, '.git');
  expect(lstatSync(dotGit).isFile()).toBe(true);
  const registration = join(repository.path, '.git', 'worktrees', workspace.split('/').at(-1)!);
  expect(await readFile(dotGit, 'utf8')).toBe(`gitdir: ${registration}\n`);
  expect(await readFile(join(registration, 'gitdir'), 'utf8')).toBe(`${dotGit}\n`);
  expect(await readFile(join(registration, 'commondir'), 'utf8')).toBe('../..\n');
  expect(existsSync(join(registration, 'config.worktree'))).toBe(false);
}

interface Account {
  runId: string;
  outcome: string;
  workspace: string;
}

interface Doctor {
  findings: { kind: string; path: string; message: string }[];
}

async function doctorFindings(kind: string): Promise<{ exitCode: number; findings: Doctor['findings'] }> {
  const doctor = await runStatecraft(['doctor', '--json'], { home: targets.home.path });
  return { exitCode: doctor.exitCode, findings: parseJson<Doctor>(doctor).findings.filter((finding) => finding.kind === kind) };
}

describe("after an attempt the workspace's git is what statecraft made: the operator's git there runs nothing the agent wrote", () => {
  const cases: { plant: Plant; boundary: string[]; changed: string }[] = [
    { plant: 'directory', boundary: [], changed: '.git' },
    { plant: 'symlink', boundary: [], changed: '.git' },
    { plant: 'file', boundary: [], changed: '.git' },
    // Without the boundary the agent can write the registration in the repository's git directory too.
    { plant: 'config-worktree', boundary: ['--boundary', 'none'], changed: 'config.worktree' },
    { plant: 'commondir', boundary: ['--boundary', 'none'], changed: 'commondir' },
  ];
  for (const { plant, boundary, changed } of cases) {
    it(`an agent that plants a git directory (${plant}${boundary.length > 0 ? ', no boundary' : ''}): restored and said; git status runs no hook; doctor finds nothing`, async () => {
      const repository = await targets.fresh();
      // An operator's repository that uses per-worktree configuration: git then obeys a config.worktree.
      if (plant === 'config-worktree') await repository.git('config', 'extensions.worktreeConfig', 'true');
      const marker = join(await scratch.make('statecraft-git-hook-ran'), 'ran');
      const run = await runStatecraft(['run', repository.path, '--adapter', await plantingAdapter(plant, marker), '--prompt', 'plant', '--json', ...boundary], {
        home: targets.home.path,
      });
      expect(run.exitCode, run.stderr).toBe(0);
      const account = parseJson<Account>(run);
      expect(account.outcome).toBe('completed');
      // statecraft's own git ran nothing of it, before and after.
      expect(existsSync(marker)).toBe(false);
      await operatorGitStatus(account.workspace);
      expect(existsSync(marker), "the operator's git status ran the agent's hook").toBe(false);
      expect(run.stderr).toMatch(new RegExp(`the attempt left \\S*${changed.replace('.', '\\.')} .*; restored as statecraft made it`));
      await expectGitAsMade(repository, account.workspace);
      expect((await doctorFindings('workspace-git-changed')).findings).toEqual([]);
    });
  }

  it('a clean attempt leaves its .git as made and says nothing of it', async () => {
    const repository = await targets.fresh();
    const run = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], { home: targets.home.path });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('restored as statecraft made it');
    await expectGitAsMade(repository, parseJson<Account>(run).workspace);
  });
});

describe('doctor names a workspace whose git is not what statecraft made (workspace-git-changed)', () => {
  it('a supervisor killed while its agent had replaced .git: doctor names the workspace; a retry of the run restores it', async () => {
    const repository = await targets.fresh();
    const marker = join(await scratch.make('statecraft-git-hook-ran'), 'ran');
    const adapter = await plantingAdapter('directory', marker, true);
    const supervisor = execa(STATECRAFT_BIN, ['run', repository.path, '--adapter', adapter, '--prompt', 'plant', '--deadline', '120s', '--json'], {
      env: statecraftEnvironment(targets.home.path),
      extendEnv: false,
      reject: false,
      detached: true,
      timeout: 60_000,
    });
    const workspaces = join(repository.path, '.statecraft', 'state', 'workspaces');
    const planted = (): boolean =>
      existsSync(workspaces) &&
      readdirSync(workspaces).some((name) => lstatSync(join(workspaces, name, '.git'), { throwIfNoEntry: false })?.isDirectory() === true);
    expect(await until(planted, 30_000), 'the agent replaced .git').toBe(true);
    process.kill(supervisor.pid!, 'SIGKILL');
    await supervisor;
    expect(await until(() => processesWithArgument(adapter).length === 0, 10_000), 'the agent ended with its supervisor').toBe(true);
    const [runId] = readdirSync(workspaces);
    const workspace = join(workspaces, runId!);

    const found = await doctorFindings('workspace-git-changed');
    expect(found.exitCode).toBe(1);
    expect(found.findings).toHaveLength(1);
    expect(found.findings[0]).toMatchObject({ path: workspace });
    expect(found.findings[0]!.message).toContain(`${join(workspace, '.git')} is a directory`);
    expect(found.findings[0]!.message).toContain(`--retry ${runId}`);
    // doctor ran no git there.
    expect(existsSync(marker)).toBe(false);

    const retry = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--retry', runId!, '--json'], {
      home: targets.home.path,
    });
    expect(retry.exitCode, retry.stderr).toBe(0);
    expect(retry.stderr).toContain(`the attempt left ${join(workspace, '.git')} a directory`);
    await expectGitAsMade(repository, workspace);
    expect((await doctorFindings('workspace-git-changed')).findings).toEqual([]);
  });

  const changes: {
    name: string;
    change: (workspace: string, registration: string) => Promise<void>;
    says: (workspace: string, registration: string) => string;
  }[] = [
    {
      name: '.git a symbolic link',
      change: async (workspace) => {
        await rm(join(workspace, '.git'));
        await symlink('/tmp', join(workspace, '.git'));
      },
      says: (workspace) => `${join(workspace, '.git')} is a symbolic link to "/tmp"`,
    },
    {
      name: '.git a file naming elsewhere',
      change: (workspace) => writeFile(join(workspace, '.git'), 'gitdir: /tmp/elsewhere\n'),
      says: (workspace) => `${join(workspace, '.git')} is a file holding "gitdir: /tmp/elsewhere\\n"`,
    },
    {
      name: 'its registration given a config.worktree',
      change: (_workspace, registration) => writeFile(join(registration, 'config.worktree'), '[core]\n\tfsmonitor = true\n'),
      says: (_workspace, registration) => `${join(registration, 'config.worktree')} is a per-worktree configuration statecraft did not write`,
    },
    {
      name: "its registration's commondir aimed elsewhere",
      change: (_workspace, registration) => writeFile(join(registration, 'commondir'), '/tmp/elsewhere\n'),
      says: (_workspace, registration) => `${join(registration, 'commondir')} is a file holding "/tmp/elsewhere\\n"`,
    },
    {
      name: 'no registration left naming it',
      change: (_workspace, registration) => writeFile(join(registration, 'gitdir'), '/tmp/elsewhere/.git\n'),
      says: () => 'is registered at it, so nothing says what its .git should name',
    },
  ];
  for (const { name, change, says } of changes) {
    it(`a workspace changed after its attempt (${name}): named, exit 1; nothing is repaired`, async () => {
      const repository = await targets.fresh();
      const run = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], {
        home: targets.home.path,
      });
      expect(run.exitCode, run.stderr).toBe(0);
      const { workspace } = parseJson<Account>(run);
      const registration = join(repository.path, '.git', 'worktrees', workspace.split('/').at(-1)!);
      await change(workspace, registration);
      const found = await doctorFindings('workspace-git-changed');
      expect(found.exitCode).toBe(1);
      expect(found.findings.map((finding) => finding.path)).toEqual([workspace]);
      expect(found.findings[0]!.message).toContain(says(workspace, registration));
      // Read-only: the change stands.
      const again = await doctorFindings('workspace-git-changed');
      expect(again.findings.map((finding) => finding.path)).toEqual([workspace]);
      // Put back as it was, so the next test's doctor reads only its own.
      await rm(workspace, { recursive: true, force: true });
      await repository.git('worktree', 'prune');
    });
  }
});
