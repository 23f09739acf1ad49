import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { doctorOf } from '../../fixtures/doctor-findings.js';
import { processesWithArgument } from '../../fixtures/processes-with-argument.js';
import { useTestTargets, type SampleRepository } from '../../fixtures/sample-repository.js';
import { createScriptedAdapter } from '../../fixtures/scripted-adapter.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { STATECRAFT_BIN, parseJson, runStatecraft, statecraftEnvironment } from '../../fixtures/statecraft-cli.js';
import { until } from '../../fixtures/until.js';

// Issue 29 item 3, on the verb that concludes an attempt whose supervisor was lost: the agent
// replaced its workspace's `.git` and the supervisor was killed before the end of the attempt put
// it back. `run reconcile` concludes the attempt; afterwards the workspace's git must be what
// statecraft made, as after any other attempt, or the operator's first `git status` in the
// workspace path runs the agent's `core.fsmonitor` as the operator.

const targets = useTestTargets({ sharedRepository: false });
const scratch = scratchDirectories();

type Plant = 'directory' | 'symlink' | 'file';

/** The agent: a git directory of its own whose fsmonitor touches `marker`, put where `.git` was; then it hangs. */
function plantingBody(plant: Plant, marker: string): string {
  return [
    "const { execFileSync } = require('node:child_process');",
    "const fs = require('node:fs');",
    "const path = require('node:path');",
    'init();',
    "const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).trim();",
    "const objects = path.resolve(git('rev-parse', '--git-common-dir'), 'objects');",
    "const head = git('rev-parse', 'HEAD');",
    "const planted = path.resolve('.planted');",
    "for (const d of ['objects/info', 'refs/heads', 'info']) fs.mkdirSync(path.join(planted, d), { recursive: true });",
    "fs.writeFileSync(path.join(planted, 'HEAD'), head + '\\n');",
    "fs.writeFileSync(path.join(planted, 'objects/info/alternates'), objects + '\\n');",
    `fs.writeFileSync(path.join(planted, 'config'), '[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = ' + ${JSON.stringify(JSON.stringify(`touch '${marker}'; false`))} + '\\n');`,
    `const plant = ${JSON.stringify(plant)};`,
    "if (plant === 'directory') { fs.rmSync('.git'); fs.renameSync(planted, '.git'); }",
    "if (plant === 'symlink') { fs.rmSync('.git'); fs.symlinkSync(planted, '.git'); }",
    "if (plant === 'file') fs.writeFileSync('.git', 'gitdir: .planted\\n');",
    "fs.writeFileSync('planted-done', '');",
    'setInterval(() => {}, 1000);',
  ].join('\n');
}

async function plantingAdapter(plant: Plant, marker: string): Promise<string> {
  const adapter = await createScriptedAdapter(`reconcile-plants-${plant}`, plantingBody(plant, marker));
  scratch.keep(adapter);
  const manifestFile = `${adapter.executable}.manifest.json`;
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as { requiresCommands: string[] };
  await writeFile(manifestFile, JSON.stringify({ ...manifest, requiresCommands: ['node', 'git'] }, null, 2));
  return adapter.executable;
}

/** Runs the planting agent and kills its supervisor with SIGKILL once it has planted: the workspace. */
async function plantedThenLost(repository: SampleRepository, adapter: string): Promise<string> {
  const supervisor = execa(STATECRAFT_BIN, ['run', repository.path, '--adapter', adapter, '--prompt', 'plant', '--deadline', '120s', '--json'], {
    env: statecraftEnvironment(targets.home.path),
    extendEnv: false,
    reject: false,
    detached: true,
    timeout: 60_000,
  });
  const workspaces = join(repository.path, '.statecraft', 'state', 'workspaces');
  const planted = (): boolean => existsSync(workspaces) && readdirSync(workspaces).some((name) => existsSync(join(workspaces, name, 'planted-done')));
  expect(await until(planted, 30_000), 'the agent replaced .git').toBe(true);
  process.kill(supervisor.pid!, 'SIGKILL');
  await supervisor;
  expect(await until(() => processesWithArgument(adapter).length === 0, 10_000), 'the agent ended with its supervisor').toBe(true);
  const [runId] = readdirSync(workspaces);
  return join(workspaces, runId!);
}

/** The operator's own git in the workspace, as they would run it after the attempt was concluded. */
async function operatorGitStatus(workspace: string): Promise<void> {
  await execa('git', ['status', '--porcelain'], {
    cwd: workspace,
    reject: false,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root' },
    extendEnv: false,
  });
}

interface Reconciled {
  reconciled: { runId: string; workspaceGit: { workspace: string; state: string; restored?: { path: string; what: string }[] } }[];
}

describe('run reconcile puts back the git of a lost attempt’s workspace (issue 29 item 3)', () => {
  for (const plant of ['directory', 'symlink', 'file'] as const) {
    it(`an agent that replaced .git (${plant}) before its supervisor was killed: reconcile restores it and says so; git status then runs nothing of it; doctor is clean`, async () => {
      const repository = await targets.fresh();
      const marker = join(await scratch.make('statecraft-reconcile-hook'), 'ran');
      const workspace = await plantedThenLost(repository, await plantingAdapter(plant, marker));

      const closed = await runStatecraft(['run', 'reconcile', repository.path, '--json'], { home: targets.home.path });
      expect(closed.exitCode, closed.stderr).toBe(0);
      expect(existsSync(marker), "reconcile ran the agent's hook").toBe(false);
      await operatorGitStatus(workspace);
      expect(existsSync(marker), "the operator's git status ran the agent's hook").toBe(false);
      const dotGit = join(workspace, '.git');
      expect(lstatSync(dotGit).isFile()).toBe(true);
      expect(await readFile(dotGit, 'utf8')).toBe(`gitdir: ${join(repository.path, '.git', 'worktrees', workspace.split('/').at(-1)!)}\n`);
      const [attempt] = parseJson<Reconciled>(closed).reconciled;
      expect(attempt?.workspaceGit).toMatchObject({ workspace, state: 'restored', restored: [{ path: dotGit }] });
      const doctor = await doctorOf(targets.home.path);
      expect(doctor.value.findings.filter((finding) => finding.kind === 'workspace-git-changed')).toEqual([]);
    });
  }

  it('says what it restored, in words, on the human answer', async () => {
    const repository = await targets.fresh();
    const marker = join(await scratch.make('statecraft-reconcile-hook'), 'ran');
    const workspace = await plantedThenLost(repository, await plantingAdapter('directory', marker));
    const closed = await runStatecraft(['run', 'reconcile', repository.path], { home: targets.home.path });
    expect(closed.exitCode, closed.stderr).toBe(0);
    expect(closed.stdout).toContain(`the attempt left ${join(workspace, '.git')} a directory`);
    expect(closed.stdout).toContain('restored as statecraft made it');
    expect(existsSync(marker)).toBe(false);
  });

  it('a state directory that holds a link by the time of the reconcile: nothing is removed or written through it, and the answer says so', async () => {
    const repository = await targets.fresh();
    const marker = join(await scratch.make('statecraft-reconcile-hook'), 'ran');
    const workspace = await plantedThenLost(repository, await plantingAdapter('directory', marker));
    // The workspaces moved elsewhere and a link put in their place: what reconcile would follow.
    const workspaces = join(repository.path, '.statecraft', 'state', 'workspaces');
    const elsewhere = join(await scratch.make('statecraft-reconcile-elsewhere'), 'workspaces');
    await rename(workspaces, elsewhere);
    await symlink(elsewhere, workspaces);
    const planted = join(elsewhere, workspace.split('/').at(-1)!, '.git');

    const closed = await runStatecraft(['run', 'reconcile', repository.path, '--json'], { home: targets.home.path });
    expect(closed.exitCode, closed.stderr).toBe(0);
    expect(parseJson<Reconciled>(closed).reconciled[0]?.workspaceGit).toMatchObject({ workspace, state: 'not-own' });
    expect(lstatSync(planted).isDirectory(), 'the planted .git behind the link was left as it was').toBe(true);
    expect(existsSync(marker)).toBe(false);
  });
});
