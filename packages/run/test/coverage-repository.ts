import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { dir, type DirectoryResult } from 'tmp-promise';

// A real git repository in a temporary directory, for the coverage readings (R9.4). The test's
// own git runs with system/global configuration off, so the machine's settings play no part.

const SETUP_ENV = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: '/nonexistent',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Coverage Test',
  GIT_AUTHOR_EMAIL: 'coverage@example.invalid',
  GIT_COMMITTER_NAME: 'Coverage Test',
  GIT_COMMITTER_EMAIL: 'coverage@example.invalid',
};

export interface TestRepository {
  path: string;
  write(path: string, text: string): Promise<void>;
  /** Commits everything in the working tree; returns the commit's full object name. */
  commit(message: string): Promise<string>;
  git(...args: string[]): Promise<string>;
  cleanup(): Promise<void>;
}

export async function createRepository(): Promise<TestRepository> {
  const directory: DirectoryResult = await dir({ unsafeCleanup: true, prefix: 'statecraft-coverage-' });
  const path = directory.path;
  const git = async (...args: string[]): Promise<string> => (await execa('git', args, { cwd: path, env: SETUP_ENV, extendEnv: false })).stdout;
  await git('init', '--quiet', '--initial-branch=main');
  return {
    path,
    git,
    async write(file, text) {
      await mkdir(dirname(join(path, file)), { recursive: true });
      await writeFile(join(path, file), text);
    },
    async commit(message) {
      await git('add', '--all');
      await git('commit', '--quiet', '--allow-empty', '-m', message);
      return git('rev-parse', 'HEAD');
    },
    cleanup: () => directory.cleanup(),
  };
}

/** A spec whose Verification block holds these commands, with prose around it. */
export function specText(commands: readonly string[], prose = 'The work to do.'): string {
  return ['# Spec', '', prose, '', '## Verification', '', '```sh', ...commands, '```', '', '## Notes', '', 'Later.', ''].join('\n');
}

export function declarationText(commands: readonly unknown[]): string {
  return `${JSON.stringify({ project: { commands } }, null, 2)}\n`;
}
