import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { comparable, firstRunCommands } from '../../fixtures/readme-first-run.js';
import { createProductHome } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { STATECRAFT_BIN } from '../../fixtures/statecraft-cli.js';

// The README's first run, command by command, through the built CLI: what a new user copies must
// work as written and print what the README shows (ids, commit ids and durations aside).

const README = fileURLToPath(new URL('../../../README.md', import.meta.url));
const scratch = scratchDirectories();

interface Ran {
  exitCode: number;
  stdout: string;
  stderr: string;
  cwd: string;
}

/** One command in bash, as a reader's shell runs it: `statecraft` is the built CLI, the directory carries over. */
async function inShell(command: string, cwd: string, home: string, state: string): Promise<Ran> {
  const cwdFile = join(state, 'cwd');
  const script = `statecraft() { "$STATECRAFT_BIN_FOR_README" "$@"; }\ncd "$1" || exit 99\n${command}\nrc=$?\npwd > "$2"\nexit $rc\n`;
  const ran = await execa('bash', ['-c', script, 'bash', cwd, cwdFile], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', STATECRAFT_HOME: home, STATECRAFT_BIN_FOR_README: STATECRAFT_BIN },
    extendEnv: false,
    reject: false,
    timeout: 120_000,
  });
  return { exitCode: ran.exitCode ?? -1, stdout: String(ran.stdout), stderr: String(ran.stderr), cwd: readFileSync(cwdFile, 'utf8').trim() };
}

describe("the README's first run", () => {
  it('run → run diff → run --accept → land → prune: each exits 0 and prints what the README shows', async () => {
    const commands = firstRunCommands(readFileSync(README, 'utf8'));
    const verbs = commands.map(({ command }) => /^statecraft (run diff|run|land|prune)\b/.exec(command)?.[1]).filter((verb) => verb !== undefined);
    expect(verbs).toEqual(['run', 'run diff', 'run', 'land', 'prune']);
    expect(commands.find(({ command }) => command.startsWith('statecraft run ') && command.includes('--accept'))).toBeDefined();

    const place = await scratch.make('statecraft-readme');
    const home = await createProductHome();
    scratch.keep(home);
    // As long as /tmp/sample, so the answers wrap where the README's do; empty, as git init wants it.
    const sample = await mkdtemp('/tmp/');
    expect(sample).toHaveLength('/tmp/sample'.length);
    scratch.keep({ remove: () => rm(sample, { recursive: true, force: true }) });
    let cwd = place;
    let runId: string | undefined;
    const workspaces: string[] = [];
    for (const { command, shown } of commands) {
      const written = command
        .split('/tmp/sample')
        .join(sample)
        .split('<run-id>')
        .join(runId ?? '<run-id>');
      const ran = await inShell(written, cwd, home.path, place);
      expect(ran.exitCode, `${command}\n${ran.stdout}${ran.stderr}`).toBe(0);
      cwd = ran.cwd;
      if (shown.length > 0) expect(comparable(ran.stdout.trimEnd(), sample), command).toBe(comparable(shown.join('\n'), sample));
      const started = /^run (\d{8}T\d{6}Z-[0-9a-f]{6}) attempt \d+: /.exec(ran.stdout);
      if (started?.[1] !== undefined && /^statecraft run --/.test(command)) {
        runId = started[1];
        workspaces.push(join(sample, '.statecraft', 'state', 'workspaces', runId));
      }
      if (command.startsWith('statecraft land ')) {
        // The candidate is in the branch: the checkout holds the agent's answer, committed.
        expect(readFileSync(join(sample, 'answer.txt'), 'utf8')).toBe('forty-two\n');
        const git = (...args: string[]) => execa('git', ['-C', sample, ...args]).then((result) => String(result.stdout));
        expect(await git('status', '--porcelain')).toBe('');
        expect(await git('log', '-1', '--format=%s')).toContain(runId);
        for (const workspace of workspaces) expect(existsSync(workspace), workspace).toBe(true);
      }
    }
    // prune removed every worktree and branch the first run made; the chain still holds the runs.
    expect(workspaces).toHaveLength(2);
    for (const workspace of workspaces) expect(existsSync(workspace), workspace).toBe(false);
    expect(String((await execa('git', ['-C', sample, 'branch', '--list', 'statecraft/*'])).stdout)).toBe('');
    const list = await execa(STATECRAFT_BIN, ['run', 'list', sample], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', STATECRAFT_HOME: home.path },
      extendEnv: false,
    });
    expect(String(list.stdout)).toContain('2 attempts');
  }, 300_000);
});
