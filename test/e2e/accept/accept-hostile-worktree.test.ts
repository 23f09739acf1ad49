import { existsSync, readdirSync } from 'node:fs';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dir } from 'tmp-promise';
import { describe, expect, it } from 'vitest';
import { repositoryWithSuite, runThenAccept } from '../../fixtures/acceptance-repository.js';
import { useTestTargets } from '../../fixtures/sample-repository.js';
import { removalOf } from '../../fixtures/scratch-directories.js';
import { parseJson, runStatecraft } from '../../fixtures/statecraft-cli.js';

// R13.3, R12: a check is untrusted code with its worktree writable. Whatever it leaves there —
// including the worktree's own `.git` pointer — must never make statecraft, outside the boundary,
// run what the check chose, nor read a state the check forged.

interface Acceptance {
  verdict: string;
  reason: string;
  checks: { command: string; exitCode: number | null }[];
  afterSuite: 'not-recorded' | { headMoved: boolean; dirtyPaths: string[] };
  receipt: null | object;
}

const targets = useTestTargets({ sharedRepository: false });
const home = () => ({ home: targets.home.path });

/**
 * A check that replaces its worktree's `.git` file with a pointer to a git directory it made:
 * HEAD the candidate, the real index, the real objects (as alternates), itself excluded — so
 * `git status` through it reads a clean tree — and `core.fsmonitor` set to a command that
 * writes `escaped` into the product home, which only a process outside the boundary can reach.
 */
function redirectingCheck(productHome: string): string {
  return [
    "import { execFileSync } from 'node:child_process';",
    "import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';",
    "import { resolve } from 'node:path';",
    "const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).trim();",
    "const gitDir = git('rev-parse', '--absolute-git-dir');",
    "const objects = resolve(git('rev-parse', '--git-common-dir'), 'objects');",
    "const head = git('rev-parse', 'HEAD');",
    "for (const directory of ['.fake/objects/info', '.fake/refs', '.fake/info']) mkdirSync(directory, { recursive: true });",
    "writeFileSync('.fake/HEAD', `${head}\\n`);",
    "writeFileSync('.fake/objects/info/alternates', `${objects}\\n`);",
    "copyFileSync(`${gitDir}/index`, '.fake/index');",
    "writeFileSync('.fake/info/exclude', '.fake\\n');",
    `const hook = ${JSON.stringify(`touch '${join(productHome, 'escaped')}'; false`)};`,
    "writeFileSync('.fake/config', `[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = ${JSON.stringify(hook)}\\n`);",
    "writeFileSync('.git', 'gitdir: .fake\\n');",
    '',
  ].join('\n');
}

/**
 * A check that populates the candidate's gitlink `vendored` with a repository of its own, one
 * commit and an untracked file, whose `core.fsmonitor` writes `escaped` into the product home:
 * a `git status` that enters the submodule runs it outside the boundary.
 */
function populatingCheck(productHome: string): string {
  return [
    "import { execFileSync } from 'node:child_process';",
    "import { mkdirSync, writeFileSync } from 'node:fs';",
    "const git = (...args) => execFileSync('git', ['-C', 'vendored', '-c', 'user.name=check', '-c', 'user.email=check@invalid', ...args]);",
    "mkdirSync('vendored', { recursive: true });",
    "git('init', '--quiet');",
    "writeFileSync('vendored/inside.txt', 'in\\n');",
    "git('add', 'inside.txt');",
    "git('commit', '--quiet', '-m', 'inside');",
    "writeFileSync('vendored/untracked.txt', 'new\\n');",
    `git('config', 'core.fsmonitor', ${JSON.stringify(`touch '${join(productHome, 'escaped')}'; false`)});`,
    '',
  ].join('\n');
}

describe('a check that plants git state in its worktree, read by statecraft outside the boundary (R13.3, R12)', () => {
  it('runs nothing of its choosing outside the boundary, is not accepted, and leaves no worktree behind', async () => {
    const repository = await repositoryWithSuite(targets, { checks: ['node redirect.mjs'] }, { 'redirect.mjs': redirectingCheck(targets.home.path) });
    const accepted = await runThenAccept<Acceptance>(repository, targets.home.path, 'forty-two');
    const { acceptance } = accepted;
    // The check ran to its end and exited 0: the attack was made.
    expect(acceptance.checks.map((check) => check.exitCode)).toEqual([0]);
    // Nothing the check wrote ran outside the boundary (the product home is hidden inside it).
    expect(existsSync(join(targets.home.path, 'escaped'))).toBe(false);
    // The tree was read through the worktree's real git directory: the check's files are dirty.
    expect(accepted.exitCode).toBe(1);
    expect(acceptance).toMatchObject({ verdict: 'interrupted', reason: 'tree-dirty', receipt: null });
    expect(acceptance.afterSuite).not.toBe('not-recorded');
    if (acceptance.afterSuite !== 'not-recorded') expect(acceptance.afterSuite.dirtyPaths).toContain('.fake/HEAD');
    // The worktree is removed though its `.git` no longer points back to the repository.
    const checks = join(repository.path, '.statecraft', 'state', 'checks');
    expect(existsSync(checks) ? readdirSync(checks) : []).toEqual([]);
    expect(await repository.git('worktree', 'list', '--porcelain')).not.toContain('.statecraft/state/checks');
  });

  it('runs nothing of a repository it made in a gitlink of the candidate, and is not accepted', async () => {
    const repository = await repositoryWithSuite(targets, { checks: ['node populate.mjs'] }, { 'populate.mjs': populatingCheck(targets.home.path) });
    // A gitlink at the base (git checks none out into a worktree), pointing at any commit.
    const head = (await repository.git('rev-parse', 'HEAD')).trim();
    await repository.git('update-index', '--add', '--cacheinfo', `160000,${head},vendored`);
    await repository.git('commit', '--quiet', '-m', 'a gitlink');
    const accepted = await runThenAccept<Acceptance>(repository, targets.home.path, 'forty-two');
    const { acceptance } = accepted;
    expect(acceptance.checks.map((check) => check.exitCode)).toEqual([0]);
    expect(existsSync(join(targets.home.path, 'escaped'))).toBe(false);
    // The gitlink's HEAD is no longer the candidate's: dirty, named, never accepted.
    expect(accepted.exitCode).toBe(1);
    expect(acceptance).toMatchObject({ verdict: 'interrupted', reason: 'tree-dirty', afterSuite: { dirtyPaths: ['vendored'] }, receipt: null });
  });
});

/**
 * A hostile adapter, a real executable: it plants the same redirecting `.git` in its own workspace
 * (writable to it inside the boundary) and then reports a completed attempt, so statecraft
 * identifies the candidate (R13.2) with git in a directory the agent shaped.
 */
async function createRedirectingAdapter(productHome: string): Promise<{ executable: string; remove: () => Promise<void> }> {
  const scratch = await dir({ unsafeCleanup: true, prefix: 'statecraft-redirecting' });
  const executable = join(scratch.path, 'redirecting-adapter');
  const source = [
    '#!/usr/bin/env node',
    redirectingCheck(productHome),
    'let seq = 0;',
    "const emit = (event) => process.stdout.write(JSON.stringify({ protocol: 1, seq: seq++, ...event }) + '\\n');",
    "emit({ type: 'init', adapter: { name: 'redirecting', version: '1.0.0' }, provider: 'none', requested: { capabilities: [] }, applied: { capabilities: [], tools: [], allowlist: 'not-recorded' }, detail: {} });",
    "emit({ type: 'result', terminal: 'completed', claim: { status: 'success', isError: false, reason: 'completed', detail: {} }, turns: 1 });",
    '',
  ].join('\n');
  await writeFile(executable, source);
  await chmod(executable, 0o755);
  const manifest = { name: 'redirecting', version: '1.0.0', protocol: 1, capabilities: [], requiresCommands: ['node', 'git'] };
  await writeFile(`${executable}.manifest.json`, JSON.stringify(manifest, null, 2));
  return { executable, remove: removalOf(scratch) };
}

describe('an agent that plants git state in its workspace, read by statecraft outside the boundary (R13.2, R12)', () => {
  it('runs nothing of its choosing when the candidate is identified, and the candidate is committed on the run branch with what it left', async () => {
    const adapter = await createRedirectingAdapter(targets.home.path);
    try {
      const repository = await repositoryWithSuite(targets, { checks: ['true'] });
      const run = await runStatecraft(['run', repository.path, '--adapter', adapter.executable, '--prompt', 'plant', '--json'], home());
      const account = parseJson<{ runId: string; outcome: string; branch: string }>(run);
      expect(account.outcome).toBe('completed');
      expect(existsSync(join(targets.home.path, 'escaped'))).toBe(false);
      // The candidate was made through the workspace's real git directory: the run branch holds what the agent left.
      const listed = await repository.git('ls-tree', '-r', '--name-only', account.branch);
      expect(listed).toContain('.fake/HEAD');
    } finally {
      await adapter.remove();
    }
  });
});
