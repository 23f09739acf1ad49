import { basename, dirname, join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { type AcceptanceAnswer, writeFiles, writePrompt } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { scratchDirectories } from '../../fixtures/scratch-directories.js';
import { parseJson, runStatecraft, STATECRAFT_BIN, statecraftEnvironment, type CliRun } from '../../fixtures/statecraft-cli.js';

// R13.3, R12 (hostile): the agents' workspaces of every worktree are hidden from the checks, under
// an empty mount laid over `.statecraft/state/workspaces`. A mount hides a path, not the files: a
// second mount reaching the repository (a bind mount of a parent, a container volume mounted at two
// places — what the product home's hiding looks for in the mount table, product-home-views.ts)
// shows the same workspaces under another path, and a check reads there what another agent left
// outside its candidate. Made here with a private mount namespace (`unshare -m`, root), the check
// names the second path; the same check over the repository's own path is refused its read.

const targets = useTestTargets({ sharedRepository: false });
const scratch = scratchDirectories();
const isRoot = process.getuid?.() === 0;

/** `statecraft accept` inside a mount namespace where `view` shows what `source` holds (a bind mount). */
async function acceptWithView(source: string, view: string, args: string[]): Promise<CliRun> {
  const script = 'mount --make-rprivate / && mount --bind "$1" "$2" && shift 2 && exec "$@"';
  const ran = await execa('unshare', ['-m', '--', 'sh', '-c', script, 'view', source, view, STATECRAFT_BIN, ...args], {
    env: statecraftEnvironment(targets.home.path),
    extendEnv: false,
    reject: false,
    timeout: 120_000,
  });
  return { args, exitCode: ran.exitCode ?? -1, stdout: String(ran.stdout), stderr: String(ran.stderr) };
}

describe("the agents' workspaces, seen through another mount of the repository's directory (R13.3, R12)", () => {
  it.skipIf(!isRoot)("are never read by a check: a candidate whose check reads another agent's leftovers is not accepted", async () => {
    const repository = await targets.fresh();
    const view = await scratch.make('statecraft-view');
    const seen = join(view, basename(repository.path), '.statecraft', 'state', 'workspaces');
    const check = `grep -qsx forty-two ${seen}/*/ignored/secret.txt`;
    const declaration = { project: { commands: ['grep'] }, acceptance: { checks: [check] } };
    await writeFiles(repository, { '.statecraft/environment.json': `${JSON.stringify(declaration)}\n`, '.gitignore': 'ignored/\n' });
    await repository.git('add', '-A');
    await repository.git('commit', '--quiet', '-m', 'declare the acceptance suite');

    // Another agent leaves what git ignores in its workspace.
    const other = await runStatecraft(
      ['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', 'ignored/secret.txt', 'forty-two'), '--json'],
      { home: targets.home.path },
    );
    expect(other.exitCode).toBe(0);
    // The judged agent changes a tracked file; its suite reads the other's leftovers through the view.
    const judgedRun = await runStatecraft(['run', repository.path, '--adapter', 'fixture', '--prompt', writePrompt('write', 'answer.txt', 'x'), '--json'], {
      home: targets.home.path,
    });
    const { runId } = parseJson<{ runId: string }>(judgedRun);

    const judged = await acceptWithView(dirname(repository.path), view, ['accept', repository.path, runId, '--json']);
    const acceptance = parseJson<AcceptanceAnswer>(judged);
    expect(acceptance.checks.map((each) => each.exitCode)).toEqual([2]);
    expect(acceptance).toMatchObject({ verdict: 'failed', reason: 'check-failed', receipt: null });
    expect(judged.exitCode).toBe(1);
  });
});
