import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { managedPathAdapters, managedPathChecksOf, PASSES_HOME } from '../../fixtures/managed-path-adapters.js';
import { commitRepositoryAt, useTestTargets } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, STATECRAFT_BIN, statecraftEnvironment } from '../../fixtures/statecraft-cli.js';

// What a managed path is and where it leads, as the launch, `env plan` and the suite read it: a
// file is left out, not an unexpected error; what cannot be read is refused, named; a HOME of `/`
// is no HOME, nor is /tmp a shelter; a link from HOME into /tmp is judged where it leads (R10.6, R12).

const targets = useTestTargets({ sharedRepository: false });
const scratch = scratchDirectories();
const { adapterManaging, hostileAdapterManaging, runWith, planWith, expectRefusedWithNothingLeft } = managedPathAdapters(targets);

/** Another user, for what only another user can own: `nobody` on most systems. */
const OTHER_USER = 65534;
const asRoot = process.getuid?.() === 0;

describe("a managed path's kind and place (R10.6, R12)", () => {
  it('a managed path that is an existing file is left out, not bound, and the run and the plan go on (~/.claude.json)', async () => {
    const repository = await targets.fresh();
    const home = await scratch.make('statecraft-operator-home');
    const file = join(home, '.provider.json');
    await writeFile(file, '{"kept":true}\n');
    // The agent tries to write the file it declared: not bound, it is read-only inside the sandbox.
    const adapter = await hostileAdapterManaging(
      ['~/.provider.json', '~/.provider'],
      `import { appendFileSync } from 'node:fs';\ntry { appendFileSync(${JSON.stringify(file)}, 'written by the agent\\n'); } catch {}`,
      PASSES_HOME,
    );
    const run = await runWith(repository.path, adapter, { HOME: home });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(await readFile(file, 'utf8')).toBe('{"kept":true}\n');
    const plan = await planWith(repository.path, adapter, { HOME: home });
    expect(plan.exitCode, plan.stderr).toBe(0);
    expect(managedPathChecksOf(plan).adapters.map((entry) => entry.managedPathCheck)).toEqual([{ verdict: 'bindable' }]);
  });

  it.skipIf(!asRoot)(
    'a managed path below a directory that cannot be searched is refused, naming it, not an unexpected error (run as another user)',
    async () => {
      // Everything the other user's statecraft reads is theirs: the repository (git trusts only its
      // owner's), the product home, the HOME; the adapter is readable to them.
      const place = await scratch.make('statecraft-other-user');
      await chmod(place, 0o755);
      const repository = join(place, 'repository');
      const productHome = join(place, 'home');
      const home = join(place, 'operator');
      await Promise.all([repository, productHome, join(home, 'locked')].map((path) => mkdir(path, { recursive: true })));
      await commitRepositoryAt(repository);
      await execa('chown', ['-R', `${OTHER_USER}:${OTHER_USER}`, repository, productHome, home]);
      await chmod(join(home, 'locked'), 0o000);
      const adapter = await adapterManaging(['~/locked/state'], PASSES_HOME);
      await chmod(dirname(adapter), 0o755);
      const plan = await execa(
        'setpriv',
        [`--reuid=${OTHER_USER}`, `--regid=${OTHER_USER}`, '--clear-groups', STATECRAFT_BIN, 'env', 'plan', repository, '--adapter', adapter, '--json'],
        { env: statecraftEnvironment(productHome, { HOME: home }), extendEnv: false, reject: false, cwd: place },
      );
      expect(plan.exitCode, plan.stderr).toBe(2);
      const answer = managedPathChecksOf({ args: ['env', 'plan'], exitCode: plan.exitCode ?? -1, stdout: plan.stdout, stderr: plan.stderr });
      expect(answer.refused?.message).toContain(`${join(home, 'locked', 'state')} cannot be read (EACCES)`);
      expect(answer.refused?.message).toContain('a path that cannot be checked is not bound writable');
    },
  );

  it('a HOME of / is no HOME: a `~` path is refused naming why, and nothing outside /tmp is bindable (docker run --user)', async () => {
    const repository = await targets.fresh();
    for (const [declared, said] of [
      ['~/etc/cron.d', 'the constructed HOME is /, which holds every path'],
      ['/etc/cron.d', 'is not inside the constructed HOME (none: HOME is /) or /tmp'],
    ] as const) {
      const adapter = await adapterManaging([declared], PASSES_HOME);
      const plan = await planWith(repository.path, adapter, { HOME: '/' });
      expect(plan.exitCode, plan.stderr).toBe(2);
      expect(managedPathChecksOf(plan).refused?.message).toContain(said);
      expect(await expectRefusedWithNothingLeft(await runWith(repository.path, adapter, { HOME: '/' }), repository)).toContain(said);
    }
  });

  it.skipIf(!asRoot)('a HOME entry that links into a directory another user owns in /tmp is refused: the check reads where the link leads', async () => {
    const repository = await targets.fresh();
    const home = await scratch.make('statecraft-operator-home');
    const theirs = join(await scratch.make('statecraft-shared-tmp'), 'theirs');
    await mkdir(join(theirs, 'state'), { recursive: true });
    await chown(theirs, OTHER_USER, OTHER_USER);
    await symlink(join(theirs, 'state'), join(home, '.provider'));
    const adapter = await adapterManaging(['~/.provider'], PASSES_HOME);
    const run = await runWith(repository.path, adapter, { HOME: home });
    expect(await expectRefusedWithNothingLeft(run, repository)).toContain(`${theirs} belongs to uid ${OTHER_USER}, not to this user, in /tmp`);
    const plan = await planWith(repository.path, adapter, { HOME: home });
    expect(plan.exitCode, plan.stderr).toBe(2);
  });

  it.skipIf(!asRoot)("a HOME of /tmp is no shelter: `~/x` is anyone's /tmp/x, and a directory another user owns there is refused", async () => {
    const repository = await targets.fresh();
    // In /tmp itself, as `~/x` would be under HOME=/tmp; named for this test, removed with the rest.
    const theirs = await scratch.make('statecraft-theirs');
    expect(dirname(theirs)).toBe('/tmp');
    await chown(theirs, OTHER_USER, OTHER_USER);
    const declared = `~/${basename(theirs)}/state`;
    const adapter = await adapterManaging([declared], PASSES_HOME);
    const run = await runWith(repository.path, adapter, { HOME: '/tmp' });
    expect(await expectRefusedWithNothingLeft(run, repository)).toContain(`${theirs} belongs to uid ${OTHER_USER}, not to this user, in /tmp`);
    expect(existsSync(join(theirs, 'state'))).toBe(false);
  });

  it("binds where a HOME link leads, once the operator's own: what was checked is what the sandbox writes", async () => {
    const repository = await targets.fresh();
    const home = await scratch.make('statecraft-operator-home');
    const state = join(await scratch.make('statecraft-provider-elsewhere'), 'state');
    await mkdir(state);
    await symlink(state, join(home, '.provider'));
    const adapter = await hostileAdapterManaging(
      ['~/.provider'],
      `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(join(home, '.provider', 'written'))}, 'by the agent');`,
      PASSES_HOME,
    );
    const run = await runWith(repository.path, adapter, { HOME: home });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(parseJson<{ outcome: string }>(run).outcome).toBe('completed');
    expect(await readFile(join(state, 'written'), 'utf8')).toBe('by the agent');
  });
});
