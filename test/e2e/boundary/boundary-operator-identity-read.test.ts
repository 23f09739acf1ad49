import { readFileSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { PASSES_HOME } from '../../fixtures/managed-path-adapters.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { createScriptedAdapter } from '../../fixtures/scripted-adapter.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// The operator's git identity is carried into the boundary (the home, and with it their git
// configuration, is hidden). It is the identity git itself reads from the global files, whatever
// those hold; a plain configuration is read without starting a git process on every launch.

const targets = useTestTargets({ sharedRepository: false });
const scratch = scratchDirectories();

/** An adapter whose agent asks git for its identity inside the boundary and writes it in the workspace. */
async function identityAdapter(): Promise<string> {
  const body = `
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const read = (key) => { const answer = spawnSync('git', ['config', key], { encoding: 'utf8' }); return answer.status === 0 ? answer.stdout.replace(/\\n$/, '') : null; };
fs.writeFileSync('identity.json', JSON.stringify({ name: read('user.name'), email: read('user.email') }));
init();
emit({ type: 'result', terminal: 'completed', claim: { status: 'success', isError: false, reason: 'completed', detail: {} }, turns: 1 });
`;
  const adapter = await createScriptedAdapter('identity-probe', body);
  scratch.keep(adapter);
  const manifestFile = `${adapter.executable}.manifest.json`;
  await writeFile(manifestFile, JSON.stringify({ ...JSON.parse(readFileSync(manifestFile, 'utf8')), ...PASSES_HOME }));
  return adapter.executable;
}

/** A PATH whose first `git` logs each command line to `log`, then runs the real git. */
async function loggingGitPath(log: string): Promise<string> {
  const directory = await scratch.make('statecraft-logging-git');
  const real = (await execa('sh', ['-c', 'command -v git'])).stdout.trim();
  await writeFile(join(directory, 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${real}' "$@"\n`);
  await chmod(join(directory, 'git'), 0o755);
  return `${directory}:${process.env.PATH ?? '/usr/bin:/bin'}`;
}

/** What `git config --global` answers for the identity under this HOME and XDG_CONFIG_HOME. */
async function gitsAnswer(env: Record<string, string>): Promise<{ name: string | null; email: string | null }> {
  const read = async (key: string) => {
    const answer = await execa('git', ['config', '--global', '--includes', key], {
      env: { ...env, GIT_CONFIG_NOSYSTEM: '1' },
      extendEnv: false,
      reject: false,
      cwd: '/',
    });
    return answer.exitCode === 0 ? answer.stdout : null;
  };
  return { name: await read('user.name'), email: await read('user.email') };
}

interface Variant {
  name: string;
  /** Files under the operator's home. */
  files: Record<string, string>;
  xdg?: string;
  /** Whether statecraft reads it alone (no `git config` process). */
  plain: boolean;
}

const VARIANTS: Variant[] = [
  { name: 'a [user] section', files: { '.gitconfig': '[user]\n\tname = Operator Person\n\temail = operator@example.invalid\n' }, plain: true },
  {
    name: 'mixed case, comments, blanks inside a value, a later value winning',
    files: {
      '.gitconfig':
        '# mine\n[core]\n\teditor = vi\n[User]\n  Name = First\tName ; old\n\tNAME=Second  Name # kept\nemail=x@example.invalid\n[credential]\n\thelper = store\n',
    },
    plain: true,
  },
  { name: 'the XDG file alone', files: { 'xdg/git/config': '[user]\n\tname = From Xdg\n\temail = xdg@example.invalid\n' }, xdg: 'xdg', plain: true },
  { name: 'the default XDG place alone', files: { '.config/git/config': '[user]\n\tname = Default Xdg\n' }, plain: true },
  {
    // Which of the two git reads then differs between git versions: git's to answer.
    name: 'both the XDG file and ~/.gitconfig',
    files: { 'xdg/git/config': '[user]\n\tname = From Xdg\n\temail = xdg@example.invalid\n', '.gitconfig': '[user]\n\temail = home@example.invalid\n' },
    xdg: 'xdg',
    plain: false,
  },
  { name: 'no global configuration', files: {}, plain: true },
  {
    name: 'an include',
    files: { '.gitconfig': '[include]\n\tpath = more\n', more: '[user]\n\tname = Included Person\n\temail = inc@example.invalid\n' },
    plain: false,
  },
  { name: 'a quoted value', files: { '.gitconfig': '[user]\n\tname = "Quoted \\"Q\\" Person"\n\temail = q@example.invalid\n' }, plain: false },
  { name: 'a subsection named user', files: { '.gitconfig': '[user "work"]\n\tname = Not This\n[user]\n\temail = only@example.invalid\n' }, plain: false },
];

describe("the operator's git identity reaches the agent as git reads it", () => {
  for (const variant of VARIANTS) {
    it(`${variant.name}: the agent's git answers what git answers outside${variant.plain ? ', and no git process read it' : ''}`, async () => {
      const home = await scratch.make('statecraft-identity-home');
      for (const [file, text] of Object.entries(variant.files)) {
        await mkdir(join(home, file, '..'), { recursive: true });
        await writeFile(join(home, file), text);
      }
      const log = join(await scratch.make('statecraft-git-log'), 'git.log');
      await writeFile(log, '');
      const path = await loggingGitPath(log);
      const env: Record<string, string> = { HOME: home, PATH: path, ...(variant.xdg === undefined ? {} : { XDG_CONFIG_HOME: join(home, variant.xdg) }) };
      const repository = await targets.fresh();
      const ran = await runStatecraft(['run', repository.path, '--adapter', await identityAdapter(), '--prompt', 'who am i', '--json'], {
        home: targets.home.path,
        env,
      });
      expect(ran.exitCode, ran.stderr).toBe(0);
      const { workspace } = parseJson<{ workspace: string }>(ran);
      const seen = JSON.parse(await readFile(join(workspace, 'identity.json'), 'utf8')) as { name: string | null; email: string | null };
      const configReads = (await readFile(log, 'utf8')).split('\n').filter((line) => /(^| )config --global/.test(line));
      expect(configReads.length > 0, `git config --global ran: ${configReads.join(' | ')}`).toBe(!variant.plain);
      expect(seen).toEqual(await gitsAnswer({ ...env, PATH: process.env.PATH ?? '/usr/bin:/bin' }));
    });
  }
});
