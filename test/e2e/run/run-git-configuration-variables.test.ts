import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { runStatecraft } from '../../fixtures/statecraft-cli.js';

// The git statecraft runs outside the sandbox reads configuration from where the managed-path
// checks protect it (the repository's git directory, ~/.gitconfig, ~/.config/git, git's own
// installation): a variable that names configuration elsewhere — a file an adapter may declare
// managed — or carries it is not passed to it (R12, R5.1).

const targets = useTestTargets({ sharedRepository: false });
const scratch = scratchDirectories();

/** Each way the operator's environment can hand git configuration, given the file that holds it and its one setting. */
const CONFIGURATION_VARIABLES: readonly [string, (file: string, key: string, value: string) => Record<string, string>][] = [
  ['GIT_CONFIG_GLOBAL', (file) => ({ GIT_CONFIG_GLOBAL: file })],
  ['GIT_CONFIG_SYSTEM', (file) => ({ GIT_CONFIG_SYSTEM: file })],
  ['GIT_CONFIG_COUNT', (_file, key, value) => ({ GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: key, GIT_CONFIG_VALUE_0: value })],
  ['GIT_CONFIG_PARAMETERS', (_file, key, value) => ({ GIT_CONFIG_PARAMETERS: `'${key}=${value}'` })],
];

describe("statecraft's own git and the operator's git variables (R12)", () => {
  for (const [variable, environment] of CONFIGURATION_VARIABLES) {
    it(`a filter handed to git through ${variable} is not run by statecraft's own git`, async () => {
      const repository = await targets.fresh({ 'README.md': '# sample\n', '.gitattributes': '* filter=planted\n' });
      const place = await scratch.make('statecraft-git-variables');
      const marker = join(place, 'ran');
      const command = `touch ${marker} && cat`;
      const file = join(place, 'gitconfig');
      await writeFile(file, `[filter "planted"]\n\tsmudge = ${command}\n`);
      const run = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', 'scenario: complete', '--json'], {
        home: targets.home.path,
        env: environment(file, 'filter.planted.smudge', command),
      });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(existsSync(marker), `statecraft's git ran the filter ${variable} handed it`).toBe(false);
    });
  }
});
