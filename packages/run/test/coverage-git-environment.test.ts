import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitReadingEnvironment, readCoverageInputs } from '@statecraft/run';
import { createRepository, declarationText, specText, type TestRepository } from './coverage-repository.js';

// R9.4: the base-commit reading runs git with every GIT_* variable removed and system/global
// configuration off, so nothing in the caller's environment can redirect or reconfigure it.

let target: TestRepository;
let decoy: TestRepository;
let saved: NodeJS.ProcessEnv;

beforeEach(async () => {
  saved = { ...process.env };
  target = await createRepository();
  decoy = await createRepository();
  await target.write('specs/004.md', specText(['cargo test']));
  await target.write('.statecraft/environment.json', declarationText(['cargo']));
  await target.commit('the target');
  await decoy.write('specs/004.md', specText(['evil']));
  await decoy.write('.statecraft/environment.json', declarationText(['evil']));
  await decoy.commit('the decoy');
});

afterEach(async () => {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  Object.assign(process.env, saved);
  await target.cleanup();
  await decoy.cleanup();
});

/** Variables a caller could plant: a redirect to the decoy, and configuration that breaks git if read. */
async function plantHostileEnvironment(): Promise<void> {
  const home = join(decoy.path, 'home');
  await mkdir(join(home, '.config', 'git'), { recursive: true });
  await writeFile(join(home, '.gitconfig'), '[broken\n');
  await writeFile(join(home, '.config', 'git', 'config'), '[broken\n');
  Object.assign(process.env, {
    GIT_DIR: join(decoy.path, '.git'),
    GIT_WORK_TREE: decoy.path,
    GIT_INDEX_FILE: join(decoy.path, '.git', 'index'),
    GIT_OBJECT_DIRECTORY: join(decoy.path, '.git', 'objects'),
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'core.bogus',
    GIT_CONFIG_VALUE_0: 'x',
    GIT_CONFIG_PARAMETERS: 'bogus-format',
    GIT_CONFIG_GLOBAL: join(home, '.gitconfig'),
    GIT_CONFIG_SYSTEM: join(home, '.gitconfig'),
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
  });
}

describe("the base-commit reading ignores the caller's git environment (R9.4)", () => {
  it('is redirected when git inherits the planted variables (the control)', async () => {
    await plantHostileEnvironment();
    const inherited = await execa('git', ['cat-file', 'blob', 'HEAD:.statecraft/environment.json'], { cwd: target.path, reject: false });
    // Either git is aimed at the decoy or it fails on the planted configuration; never the target.
    expect(inherited.exitCode === 0 ? inherited.stdout : 'failed').not.toContain('"cargo"');
  });

  it('reads the target at HEAD despite a planted GIT_DIR, GIT_CONFIG_* and HOME', async () => {
    await plantHostileEnvironment();
    const reading = await readCoverageInputs({ repository: target.path, spec: '004', source: { kind: 'commit', commit: 'HEAD' } });
    expect(reading).toMatchObject({
      kind: 'read',
      spec: { text: specText(['cargo test']) },
      declaration: { kind: 'present', text: declarationText(['cargo']) },
    });
  });

  it("builds git's environment from nothing: no GIT_* name of the source survives", () => {
    const environment = gitReadingEnvironment({ PATH: '/bin', GIT_DIR: '/x', GIT_CONFIG_COUNT: '1', HOME: '/home/op', XDG_CONFIG_HOME: '/c' });
    expect(environment).toEqual({
      PATH: '/bin',
      HOME: '/nonexistent',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_TERMINAL_PROMPT: '0',
      LC_ALL: 'C',
    });
  });
});
