import { existsSync } from 'node:fs';
import { appendFile, mkdir, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { managedPathAdapters, managedPathChecksOf, PASSES_HOME } from '../../fixtures/managed-path-adapters.js';
import { commitRepositoryAt, useTestTargets } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// statecraft's own git runs, outside the sandbox, only in a target: the one it is run on, and the
// ones the product home names (a retry, accept). A managed path is refused when it is or lies inside
// a git directory, or overlaps a target; what it holds is not walked (a provider's plugins are git
// clones), and a target that lies in a path its adapter declares managed is refused at planning,
// before any git that obeys the repository's configuration runs there (R10.6, R12).

const targets = useTestTargets({ sharedRepository: false });
const scratch = scratchDirectories();
const { adapterManaging, hostileAdapterManaging, runWith, planWith, expectRefusedWithNothingLeft } = managedPathAdapters(targets);

/** A git repository with one commit at `path`, made with its parents. */
async function repositoryAt(path: string, files?: Record<string, string>) {
  await mkdir(path, { recursive: true });
  return commitRepositoryAt(path, files);
}

/** The agent's part (scripted-adapter.ts): a repository made with git inside the sandbox, its configuration naming a filter that touches `marker`. */
function agentMakesRepositoryWithFilter(at: string, marker: string): string {
  const git = (args: string[]) =>
    `execFileSync('git', ${JSON.stringify(['-c', 'user.name=agent', '-c', 'user.email=agent@statecraft.invalid', ...args])}, { cwd: ${JSON.stringify(at)}, stdio: 'ignore' });`;
  return [
    "import { execFileSync } from 'node:child_process';",
    "import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';",
    `mkdirSync(${JSON.stringify(at)}, { recursive: true });`,
    git(['init', '--quiet']),
    `writeFileSync(${JSON.stringify(join(at, '.gitattributes'))}, '* filter=planted\\n');`,
    git(['add', '.']),
    git(['commit', '--quiet', '-m', 'planted']),
    `appendFileSync(${JSON.stringify(join(at, '.git', 'config'))}, ${JSON.stringify(`[filter "planted"]\n\tsmudge = touch ${marker} && cat\n`)});`,
  ].join('\n');
}

/**
 * A run on another repository whose agent makes a repository under its managed path `~/.provider`
 * (empty at the launch's check), with a filter in its configuration and an attribute that names it.
 */
async function agentPlantsUnderItsManagedPath(): Promise<{ home: string; cloned: string; marker: string; adapter: string }> {
  const repository = await targets.fresh();
  const home = await scratch.make('statecraft-operator-home');
  const cloned = join(home, '.provider', 'plugins', 'cloned');
  const marker = join(await scratch.make('statecraft-filter-marker'), 'ran');
  const adapter = await hostileAdapterManaging(['~/.provider'], agentMakesRepositoryWithFilter(cloned, marker), PASSES_HOME);
  const first = await runWith(repository.path, adapter, { HOME: home });
  expect(first.exitCode, first.stderr).toBe(0);
  return { home, cloned, marker, adapter };
}

/** Every path the file's product home remembers as bound writable, with the adapter that declared it. */
async function rememberedPaths(): Promise<{ path: string; adapter: string }[]> {
  const directory = join(targets.home.path, 'writable-paths');
  return Promise.all(
    (await readdir(directory)).map(async (name) => JSON.parse(await readFile(join(directory, name), 'utf8')) as { path: string; adapter: string }),
  );
}

describe('managed paths and git repositories (R10.6, R12)', () => {
  it("a path holding a git repository no target names is bound, and the plan says so (a provider's plugins cloned under its directory)", async () => {
    const repository = await targets.fresh();
    const home = await scratch.make('statecraft-operator-home');
    await repositoryAt(join(home, '.provider', 'plugins', 'marketplaces', 'official'));
    const adapter = await adapterManaging(['~/.provider'], PASSES_HOME);
    const run = await runWith(repository.path, adapter, { HOME: home });
    expect(run.exitCode, run.stderr).toBe(0);
    const plan = await planWith(repository.path, adapter, { HOME: home });
    expect(plan.exitCode, plan.stderr).toBe(0);
    expect(managedPathChecksOf(plan).adapters.map((entry) => entry.managedPathCheck)).toEqual([{ verdict: 'bindable' }]);
  });

  it('a target that lies in a path its adapter declares managed is refused at planning: the filter its agent planted there never runs', async () => {
    const { home, cloned, marker, adapter } = await agentPlantsUnderItsManagedPath();
    expect(await readFile(join(cloned, '.git', 'config'), 'utf8')).toContain('[filter "planted"]');
    // Then the operator runs statecraft on that repository with the same adapter.
    const run = await runWith(cloned, adapter, { HOME: home });
    expect(existsSync(marker), "statecraft's git ran the filter the agent planted").toBe(false);
    expect(run.exitCode, run.stderr).toBe(2);
    const refused = parseJson<{ refused: { stage: string; reason: string; message: string } }>(run).refused;
    expect([refused.stage, refused.reason]).toEqual(['plan', 'target']);
    expect(refused.message).toContain(`${cloned} lies inside ${join(home, '.provider')}, which the adapter declares managed ("~/.provider")`);
    // env plan is refused too; the first run remembered the path, which refuses it whatever the adapter.
    const plan = await planWith(cloned, adapter, { HOME: home });
    expect(plan.exitCode, plan.stderr).toBe(2);
    expect(plan.stderr).toContain(`${cloned} lies inside ${join(home, '.provider')}, which a launch of the adapter managing bound writable`);
  });

  it('a target that lies in a path an earlier attempt had writable is refused at planning whatever adapter runs it now, and the home names the path', async () => {
    const { home, cloned, marker } = await agentPlantsUnderItsManagedPath();
    // The home remembers what the boundary bound writable, by the adapter that declared it.
    expect(await rememberedPaths()).toContainEqual(expect.objectContaining({ path: join(home, '.provider') }));
    // Then the operator runs statecraft on that repository with the fixture, which manages nothing.
    const run = await runWith(cloned, 'fixture', { HOME: home });
    expect(existsSync(marker), "statecraft's git ran the filter the agent planted").toBe(false);
    expect(run.exitCode, run.stderr).toBe(2);
    const refused = parseJson<{ refused: { stage: string; reason: string; message: string } }>(run).refused;
    expect([refused.stage, refused.reason]).toEqual(['plan', 'target']);
    expect(refused.message).toContain(`${cloned} lies inside ${join(home, '.provider')}, which a launch of the adapter `);
    expect(refused.message).toContain(' bound writable inside the evidence boundary on ');
    expect(run.stderr).toContain(join(targets.home.path, 'writable-paths'));
    // env plan is refused where the run is, and runs no git that would check the repository out.
    const plan = await planWith(cloned, 'fixture', { HOME: home });
    expect(plan.exitCode, plan.stderr).toBe(2);
    expect(plan.stderr).toContain(`${cloned} lies inside ${join(home, '.provider')}, which a launch of the adapter `);
    expect(existsSync(marker)).toBe(false);
  });

  it("qualify remembers an absolute managed path it bound writable (the machine's own, not the suite's private HOME): a repository its agent planted there is refused to a later run", async () => {
    const daemon = join(await scratch.make('statecraft-managed-tmp'), 'daemon');
    const cloned = join(daemon, 'cloned');
    const marker = join(await scratch.make('statecraft-filter-marker'), 'ran');
    // A `~` path too, which lies in the suite's private HOME: bound, and not remembered.
    const adapter = await hostileAdapterManaging(['~/.provider', daemon], agentMakesRepositoryWithFilter(cloned, marker), PASSES_HOME);
    // The verdict is not the point: the agent plants its repository during the suite.
    await runStatecraft(['qualify', adapter, '--json'], { home: targets.home.path, timeoutMs: 180_000 });
    expect(await readFile(join(cloned, '.git', 'config'), 'utf8')).toContain('[filter "planted"]');
    const kept = await rememberedPaths();
    expect(kept.map((entry) => entry.path)).toContain(daemon);
    // The suite's private HOME is not remembered: it is removed with the suite.
    expect(kept.filter((entry) => entry.path.includes('statecraft-suite'))).toEqual([]);
    const run = await runWith(cloned, 'fixture');
    expect(existsSync(marker), "statecraft's git ran the filter the agent planted").toBe(false);
    expect(run.exitCode, run.stderr).toBe(2);
    expect(parseJson<{ refused: { message: string } }>(run).refused.message).toContain(`${cloned} lies inside ${daemon}, which a launch of the adapter `);
  });

  it("a repository inside an agent's workspace, or the workspace itself, is refused at planning: the filter planted there never runs", async () => {
    const repository = await targets.fresh();
    const run = await runWith(repository.path, 'fixture');
    expect(run.exitCode, run.stderr).toBe(0);
    const { workspace } = parseJson<{ workspace: string }>(run);
    // What its agent could have left there: a repository whose configuration names a filter.
    const planted = join(workspace, 'sub');
    const marker = join(await scratch.make('statecraft-filter-marker'), 'ran');
    await mkdir(planted);
    const sub = await repositoryAt(planted, { '.gitattributes': '* filter=planted\n', 'a.txt': 'a\n' });
    await appendFile(join(planted, '.git', 'config'), `[filter "planted"]\n\tsmudge = touch ${marker} && cat\n`);
    expect(await sub.git('log', '--oneline')).not.toBe('');
    for (const target of [planted, workspace]) {
      const refused = await runWith(target, 'fixture');
      expect(refused.exitCode, refused.stderr).toBe(2);
      const answer = parseJson<{ refused: { stage: string; reason: string; message: string } }>(refused).refused;
      expect([answer.stage, answer.reason]).toEqual(['plan', 'target']);
      expect(answer.message).toContain(`${target} lies inside ${join(repository.path, '.statecraft', 'state')}, where statecraft keeps agents' workspaces`);
    }
    const plan = await planWith(planted, 'fixture');
    expect(plan.exitCode, plan.stderr).toBe(2);
    expect(plan.stderr).toContain("where statecraft keeps agents' workspaces and the checks' worktrees");
    expect(existsSync(marker), "statecraft's git ran the filter the agent planted").toBe(false);
  });

  it("qualify refuses a managed path over a repository the home keeps records for, as run does: its agent never reaches that repository's git configuration", async () => {
    const repository = await targets.fresh();
    expect((await runWith(repository.path, 'fixture')).exitCode).toBe(0);
    const config = join(repository.path, '.git', 'config');
    const before = await readFile(config, 'utf8');
    const body = `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(config)}, '[filter "planted"]\\n\\tsmudge = cat\\n');`;
    const adapter = await hostileAdapterManaging([repository.path], body);
    const qualify = await runStatecraft(['qualify', adapter, '--json'], { home: targets.home.path, timeoutMs: 180_000 });
    expect(qualify.exitCode, qualify.stderr).not.toBe(0);
    expect(qualify.stdout).toContain(`${repository.path} is a repository the product home keeps records for`);
    expect(await readFile(config, 'utf8')).toBe(before);
  });

  it('accept refuses a target inside a path a boundary bound writable, before any git checks a worktree out there', async () => {
    const parent = await scratch.make('statecraft-remembered-parent');
    const inside = join(parent, 'repository');
    await repositoryAt(inside);
    const run = await runWith(inside, 'fixture');
    expect(run.exitCode, run.stderr).toBe(0);
    const { runId } = parseJson<{ runId: string }>(run);
    // The home remembers the parent as bound writable (what a launch writes, written here).
    const directory = join(targets.home.path, 'writable-paths');
    await mkdir(directory, { recursive: true });
    const file = join(directory, 'remembered-by-the-test.json');
    await writeFile(file, `${JSON.stringify({ path: parent, adapter: 'managing', since: new Date().toISOString() })}\n`);
    try {
      const accept = await runStatecraft(['accept', inside, runId, '--json'], { home: targets.home.path });
      expect(accept.exitCode, accept.stderr).toBe(2);
      expect(accept.stderr).toContain(`${inside} lies inside ${parent}, which a launch of the adapter managing bound writable`);
      expect(accept.stderr).toContain('nothing judged');
    } finally {
      await rm(file);
    }
  });

  it('a remembered path moved elsewhere and linked back is still the path: the repository under it is refused for another adapter', async () => {
    const { home, cloned, marker } = await agentPlantsUnderItsManagedPath();
    // The operator moves the directory to another place and links it back.
    const moved = join(await scratch.make('statecraft-moved'), 'provider');
    await rename(join(home, '.provider'), moved);
    await symlink(moved, join(home, '.provider'));
    const run = await runWith(cloned, 'fixture', { HOME: home });
    expect(existsSync(marker), "statecraft's git ran the filter the agent planted").toBe(false);
    expect(run.exitCode, run.stderr).toBe(2);
    const refused = parseJson<{ refused: { message: string } }>(run).refused;
    expect(refused.message).toContain(`${join(moved, 'plugins', 'cloned')} lies inside ${join(home, '.provider')} (${moved} with its links resolved now)`);
  });

  it('a remembered path that cannot be read refuses every run at planning, naming the file and field: nothing is guessed', async () => {
    const repository = await targets.fresh();
    const directory = join(targets.home.path, 'writable-paths');
    await mkdir(directory, { recursive: true });
    const file = join(directory, 'forged.json');
    await writeFile(file, `${JSON.stringify({ path: 'relative/path', adapter: 'x', since: new Date().toISOString() })}\n`);
    try {
      const run = await runWith(repository.path, 'fixture');
      expect(run.exitCode, run.stderr).toBe(2);
      const refused = parseJson<{ refused: { stage: string; reason: string; message: string } }>(run).refused;
      expect([refused.stage, refused.reason]).toEqual(['plan', 'target']);
      expect(refused.message).toContain(`${file}: field "path": an absolute path`);
      expect(refused.message).toContain('statecraft cannot tell whether the target lies in a path an earlier attempt had writable');
      // doctor says so too: it never reports health where run would fail.
      const doctor = await runStatecraft(['doctor', '--json'], { home: targets.home.path });
      expect(doctor.exitCode).toBe(1);
      const findings = parseJson<{ findings: { kind: string; path: string; message: string }[] }>(doctor).findings.filter((finding) => finding.path === file);
      expect(findings.map((finding) => finding.kind)).toEqual(['home-unusable']);
      expect(findings[0]?.message).toContain(`${file}: field "path": an absolute path`);
    } finally {
      await rm(file);
    }
  });

  it('env plan refuses a target inside a path an adapter declares managed, naming the adapter, as run refuses it', async () => {
    const home = await scratch.make('statecraft-operator-home');
    const inside = join(home, '.provider', 'repository');
    await repositoryAt(inside);
    const adapter = await adapterManaging(['~/.provider'], PASSES_HOME);
    const plan = await planWith(inside, adapter, { HOME: home });
    expect(plan.exitCode, plan.stderr).toBe(2);
    expect(parseJson<{ refused: { message: string } }>(plan).refused.message).toContain(
      `custom: ${inside} lies inside ${join(home, '.provider')}, which the adapter declares managed ("~/.provider")`,
    );
    const run = await runWith(inside, adapter, { HOME: home });
    expect(run.exitCode, run.stderr).toBe(2);
  });

  it("a path that lies inside another repository's git directory is refused, as its git directory is (a hostile pass planted a filter there)", async () => {
    const repository = await targets.fresh();
    const other = await targets.fresh();
    const message = await expectRefusedWithNothingLeft(await runWith(repository.path, await adapterManaging([join(other.path, '.git', 'info')])), repository);
    expect(message).toContain(`is inside the git directory ${join(other.path, '.git')}`);
  });

  it('a path that holds a repository the product home keeps records for is refused', async () => {
    const repository = await targets.fresh();
    const place = await scratch.make('statecraft-holding-a-target');
    const earlier = await repositoryAt(join(place, 'earlier'));
    expect((await runWith(earlier.path, 'fixture')).exitCode).toBe(0);
    const message = await expectRefusedWithNothingLeft(await runWith(repository.path, await adapterManaging([place])), repository);
    expect(message).toContain(`holds a repository the product home keeps records for`);
  });

  it('a HOME that is a dotfiles work tree (~/.git) does not refuse its `~` paths: a work tree no target names is no git directory', async () => {
    const repository = await targets.fresh();
    const home = await scratch.make('statecraft-operator-home');
    await commitRepositoryAt(home);
    const run = await runWith(repository.path, await adapterManaging(['~/.provider'], PASSES_HOME), { HOME: home });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(existsSync(join(home, '.provider'))).toBe(true);
  });

  it('what lies above HOME is not looked at: a directory there that git would take for a git directory refuses nothing', async () => {
    const repository = await targets.fresh();
    const above = await scratch.make('statecraft-above-home');
    // What any user can make in /tmp: HEAD, objects and refs, as git looks for them.
    await Promise.all([mkdir(join(above, 'objects')), mkdir(join(above, 'refs')), appendFile(join(above, 'HEAD'), 'ref: refs/heads/main\n')]);
    const home = join(above, 'operator');
    await mkdir(home);
    const run = await runWith(repository.path, await adapterManaging(['~/.provider'], PASSES_HOME), { HOME: home });
    expect(run.exitCode, run.stderr).toBe(0);
  });

  it('a /tmp path inside a work tree another repository checks out is bound: only a git directory is refused', async () => {
    const repository = await targets.fresh();
    const worktree = await repositoryAt(join(await scratch.make('statecraft-tmp-work-tree'), 'checkout'));
    const run = await runWith(repository.path, await adapterManaging([join(worktree.path, 'provider-state')]));
    expect(run.exitCode, run.stderr).toBe(0);
    const listed = await runStatecraft(['run', 'list', repository.path, '--json'], { home: targets.home.path });
    expect(parseJson<{ attempts: unknown[] }>(listed).attempts).toHaveLength(1);
  });
});
