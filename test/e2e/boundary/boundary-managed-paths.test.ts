import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findExecutableOnPath, packageRootOf } from '@statecraft/adapter';
import { managedPathAdapters, PASSES_HOME } from '../../fixtures/managed-path-adapters.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, rowsRejoined, runStatecraft } from '../../fixtures/statecraft-cli.js';

const targets = useTestTargets({ sharedRepository: false });
const scratch = scratchDirectories();
const { adapterManaging, hostileAdapterManaging, runWith, expectRefusedWithNothingLeft } = managedPathAdapters(targets);

/** The git statecraft runs, as it finds it on this machine's PATH. */
function realGit(): string {
  const git = findExecutableOnPath('git', process.env.PATH);
  if (git === undefined) throw new Error('no git on PATH');
  return git;
}

describe("an adapter's managed paths are checked before they are made or bound writable (R12, R10.6)", () => {
  it("refuses the repository's own .git, at planning: bound writable, its config is a command statecraft's git runs outside the sandbox", async () => {
    const repository = await targets.fresh();
    const configBefore = await readFile(join(repository.path, '.git', 'config'), 'utf8');
    const adapter = await adapterManaging([join(repository.path, '.git')]);
    const run = await runWith(repository.path, adapter);
    expect(run.exitCode, run.stderr).toBe(2);
    const refused = parseJson<{ refused: { stage: string; reason: string; message: string } }>(run).refused;
    expect([refused.stage, refused.reason]).toEqual(['plan', 'target']);
    expect(refused.message).toContain(`the git directory of ${repository.path}, ${join(repository.path, '.git')}, lies inside`);
    expect((await repository.git('worktree', 'list', '--porcelain')).match(/^worktree /gm)).toHaveLength(1);
    expect(await readFile(join(repository.path, '.git', 'config'), 'utf8')).toBe(configBefore);
    // The plan names it as the launch would refuse it: the target's git directory.
    const plan = await runStatecraft(['env', 'plan', repository.path, '--adapter', adapter, '--json'], { home: targets.home.path });
    expect(plan.exitCode, plan.stderr).toBe(2);
    expect(parseJson<{ refused: { message: string } }>(plan).refused.message).toContain("the target repository's git directory");
  });

  it('refuses a path inside the product home, and does not make it there', async () => {
    const repository = await targets.fresh();
    const planted = join(targets.home.path, 'targets', 'planted-by-the-adapter');
    const run = await runWith(repository.path, await adapterManaging([planted]));
    expect(await expectRefusedWithNothingLeft(run, repository)).toContain('the product home');
    expect(existsSync(planted)).toBe(false);
  });

  it("refuses a directory on the operator's PATH, where statecraft finds bwrap and git", async () => {
    const repository = await targets.fresh();
    const onPath = await scratch.make('statecraft-on-path');
    const run = await runWith(repository.path, await adapterManaging([onPath]), { PATH: `${onPath}:${process.env.PATH ?? '/usr/bin:/bin'}` });
    expect(await expectRefusedWithNothingLeft(run, repository)).toContain('a directory on PATH');
  });

  it('refuses a link that leads into the repository, judged with its links resolved', async () => {
    const repository = await targets.fresh();
    const link = join(await scratch.make('statecraft-managed-link'), 'provider-state');
    await symlink(join(repository.path, '.git', 'hooks'), link);
    const run = await runWith(repository.path, await adapterManaging([link]));
    const message = await expectRefusedWithNothingLeft(run, repository);
    expect(message).toContain('with its links resolved');
    expect(message).toContain('the target repository');
  });

  it('refuses a path outside the constructed HOME and /tmp, and does not make it', async () => {
    const repository = await targets.fresh();
    const elsewhere = `/var/tmp/statecraft-managed-${process.pid}-${Date.now()}`;
    const run = await runWith(repository.path, await adapterManaging([elsewhere]));
    expect(await expectRefusedWithNothingLeft(run, repository)).toContain('is not inside the constructed HOME');
    expect(existsSync(elsewhere)).toBe(false);
  });

  it("refuses a link in the shared /tmp, though it leads inside HOME: /tmp is every user's to place links in", async () => {
    const repository = await targets.fresh();
    const home = await scratch.make('statecraft-operator-home');
    await mkdir(join(home, '.provider'));
    const link = join(await scratch.make('statecraft-shared-tmp'), 'provider-daemon');
    await symlink(join(home, '.provider'), link);
    const run = await runWith(repository.path, await adapterManaging([link]), { HOME: home });
    expect(await expectRefusedWithNothingLeft(run, repository)).toContain(`${link} is a symbolic link in /tmp`);
  });

  it("refuses a `~` path that leaves HOME, an entry of HOME that is never a provider's, and makes none of the paths declared before", async () => {
    const repository = await targets.fresh();
    const home = await scratch.make('statecraft-operator-home');
    const madeFirst = join(home, '.provider-made-first');
    for (const [declared, said] of [
      ['~/../outside-home', `${join(home, '..', 'outside-home')} is not inside the constructed HOME`],
      ['~/.ssh', "the operator's SSH keys"],
      ['~/.local', "holds the operator's own programs"],
    ] as const) {
      const run = await runWith(repository.path, await adapterManaging(['~/.provider-made-first', declared], PASSES_HOME), { HOME: home });
      expect(await expectRefusedWithNothingLeft(run, repository)).toContain(said);
      expect(existsSync(madeFirst), 'a path declared before the refused one is not made').toBe(false);
    }
  });

  it("refuses statecraft's own program, found from its own module wherever it is installed", async () => {
    const repository = await targets.fresh();
    // A HOME that holds statecraft's package, as an install under ~ does: its bundle is declared managed.
    const cli = packageRootOf('@statecraft/cli', import.meta.url);
    const run = await runWith(repository.path, await adapterManaging(['~/dist/bundle'], PASSES_HOME), { HOME: cli });
    expect(await expectRefusedWithNothingLeft(run, repository)).toContain("statecraft's own program");
  });

  it('env plan refuses a managed path as the launch would (exit 2, naming it), and makes nothing', async () => {
    const repository = await targets.fresh();
    const planted = join(targets.home.path, 'targets', 'planned-by-the-adapter');
    const adapter = await adapterManaging([planted]);
    const plan = await runStatecraft(['env', 'plan', repository.path, '--adapter', adapter, '--json'], { home: targets.home.path });
    expect(plan.exitCode, plan.stderr).toBe(2);
    const answer = parseJson<{ verdict: string; refused: { message: string }; adapters: { managedPathCheck: { verdict: string; path: string } }[] }>(plan);
    expect(answer.verdict).toBe('refused');
    expect(answer.adapters.map((entry) => entry.managedPathCheck)).toEqual([expect.objectContaining({ verdict: 'refused', path: planted })]);
    expect(answer.refused.message).toContain('the product home');
    const human = await runStatecraft(['env', 'plan', repository.path, '--adapter', adapter], { home: targets.home.path });
    expect(human.exitCode).toBe(2);
    expect(rowsRejoined(human.stdout, 17)).toContain(`REFUSED        the adapter's managed path ${JSON.stringify(planted)}`);
    expect(existsSync(planted)).toBe(false);
    // The same adapter's run is refused for the same path: the plan read what the launch reads.
    expect(await expectRefusedWithNothingLeft(await runWith(repository.path, adapter), repository)).toContain(planted);
  });

  it("refuses another repository's .git (a hostile pass: its filter then ran at that repository's next run, as the operator), and its config stays as it was", async () => {
    const repository = await targets.fresh();
    const other = await targets.fresh();
    const config = join(other.path, '.git', 'config');
    const configBefore = await readFile(config, 'utf8');
    // The agent plants a filter where it was given write access, as a hostile agent would.
    const adapter = await hostileAdapterManaging(
      [join(other.path, '.git')],
      `import { appendFileSync } from 'node:fs';\ntry { appendFileSync(${JSON.stringify(config)}, '[filter "evil"]\\n\\tclean = touch /tmp/statecraft-evil-filter-ran\\n'); } catch {}`,
    );
    const message = await expectRefusedWithNothingLeft(await runWith(repository.path, adapter), repository);
    expect(message).toContain(`is the git directory ${join(other.path, '.git')}`);
    expect(await readFile(config, 'utf8')).toBe(configBefore);
  });

  it('refuses the path of a repository the product home keeps records for, though its .git is gone', async () => {
    const repository = await targets.fresh();
    const earlier = await targets.fresh();
    expect((await runWith(earlier.path, 'fixture')).exitCode).toBe(0);
    // Nothing of git is left there: what names it a repository statecraft runs in is the home.
    await rm(join(earlier.path, '.git'), { recursive: true });
    await rm(join(earlier.path, '.statecraft'), { recursive: true });
    const message = await expectRefusedWithNothingLeft(await runWith(repository.path, await adapterManaging([earlier.path])), repository);
    expect(message).toContain('a repository the product home keeps records for');
  });

  it('refuses the directory a program on PATH links to, and its installation (a hostile pass swapped git there)', async () => {
    const repository = await targets.fresh();
    const onPath = await scratch.make('statecraft-on-path-links');
    const installation = await scratch.make('statecraft-git-installation');
    await mkdir(join(installation, 'bin'));
    await symlink(realGit(), join(installation, 'bin', 'git'));
    await symlink(join(installation, 'bin', 'git'), join(onPath, 'git'));
    const env = { PATH: `${onPath}:${process.env.PATH ?? '/usr/bin:/bin'}` };
    const found = `(found at ${join(onPath, 'git')}, a link to ${join(installation, 'bin', 'git')}), which statecraft runs outside the sandbox`;
    for (const [declared, said] of [
      [join(installation, 'bin'), `is the directory of git ${found}`],
      // git runs its helpers from its libexec and reads its system configuration from its etc.
      [join(installation, 'libexec'), `is inside the installation of git ${found}`],
    ] as const) {
      expect(await expectRefusedWithNothingLeft(await runWith(repository.path, await adapterManaging([declared]), env), repository)).toContain(said);
    }
  });

  it('protects the installation directories of a program linked from ~/bin, not the whole HOME its prefix is', async () => {
    const repository = await targets.fresh();
    const home = await scratch.make('statecraft-operator-home');
    const cellar = join(home, '.linuxbrew', 'Cellar', 'git');
    await mkdir(join(cellar, 'bin'), { recursive: true });
    await mkdir(join(home, 'bin'));
    await symlink(realGit(), join(cellar, 'bin', 'git'));
    await symlink('../.linuxbrew/Cellar/git/bin/git', join(home, 'bin', 'git'));
    const env = { HOME: home, PATH: `${join(home, 'bin')}:${process.env.PATH ?? '/usr/bin:/bin'}` };
    for (const [declared, said] of [
      ['~/.linuxbrew/Cellar/git', `holds the directory of git (found at ${join(home, 'bin', 'git')}, a link to ${join(cellar, 'bin', 'git')})`],
      // ~/bin/git has HOME for its installation: what an installation holds there is protected, not HOME.
      ['~/libexec', `is part of the installation of git (found at ${join(home, 'bin', 'git')})`],
    ] as const) {
      const run = await runWith(repository.path, await adapterManaging([declared], PASSES_HOME), env);
      expect(await expectRefusedWithNothingLeft(run, repository)).toContain(said);
    }
    const provider = await runWith(repository.path, await adapterManaging(['~/.provider'], PASSES_HOME), env);
    expect(provider.exitCode, provider.stderr).toBe(0);
    expect(existsSync(join(home, '.provider'))).toBe(true);
  });

  it("binds the provider's own directory under /tmp writable, made when absent", async () => {
    const repository = await targets.fresh();
    const state = join(await scratch.make('statecraft-provider-state'), 'sockets');
    await mkdir(join(state, '..'), { recursive: true });
    const run = await runWith(repository.path, await adapterManaging([state]));
    expect(run.exitCode, run.stderr).toBe(0);
    expect(existsSync(state)).toBe(true);
  });
});

describe('a retry reads its workspace from the repository, never through the .git file the agent could rewrite (R12, R8.5)', () => {
  it('a retry after an agent rewrote its workspace .git runs in the registered worktree, as the end of an attempt reads it', async () => {
    const repository = await targets.fresh();
    // Inside the sandbox the workspace is the agent's, its .git file included; git outside follows that file.
    const adapter = await hostileAdapterManaging([], "import { writeFileSync } from 'node:fs';\nwriteFileSync('.git', 'gitdir: /nonexistent\\n');");
    const first = await runWith(repository.path, adapter);
    expect(first.exitCode, first.stderr).toBe(0);
    const account = parseJson<{ runId: string; workspace: string }>(first);
    // The end of the attempt put back what statecraft made (workspace-git-as-made.ts) and said so.
    expect(first.stderr).toContain(`the attempt left ${join(account.workspace, '.git')} a file holding "gitdir: /nonexistent\\n"`);
    expect(await readFile(join(account.workspace, '.git'), 'utf8')).toMatch(/^gitdir: .*\/\.git\/worktrees\/[^/]+\n$/);
    // Rewritten again after it (as an attempt whose supervisor was killed leaves it): the retry still reads the registration.
    await writeFile(join(account.workspace, '.git'), 'gitdir: /nonexistent\n');
    const retry = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--retry', account.runId, '--json'], {
      home: targets.home.path,
    });
    expect(retry.exitCode, retry.stderr).toBe(0);
    expect(parseJson<{ attempt: number; workspace: string; outcome: string }>(retry)).toMatchObject({
      attempt: 2,
      workspace: account.workspace,
      outcome: 'completed',
    });
  });
});
