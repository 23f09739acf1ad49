import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { targetKey } from '../product-home.js';
import { runGit } from './git.js';

export interface ResolvedTarget {
  /** The repository's top level, absolute and real (symlinks resolved). */
  path: string;
  /** The key its records are filed under in the product home. */
  key: string;
  /** The repository's common git directory (shared by its worktrees), absolute and real. */
  commonDirectory: string;
}

/**
 * The base commit (R8.6): the revision's full object name and its tree's (which a candidate left
 * clean on its base then has without another git call), or why it names no commit.
 */
type BaseResolution = { kind: 'resolved'; commit: string; tree: string } | { kind: 'refused'; message: string };

export type TargetResolution =
  | { kind: 'resolved'; target: ResolvedTarget; base: BaseResolution | 'not-asked' }
  | { kind: 'refused'; reason: 'missing' | 'not-a-directory' | 'not-a-repository' | 'line-break-in-path'; path: string; message: string };

/**
 * Resolves `<target>` to the top level of a git repository, or refuses naming the path; with a
 * `base` revision, resolves it to the commit a new run's workspace starts from (R8.6) in the same
 * git call.
 */
export async function resolveTarget(given: string, base?: string): Promise<TargetResolution> {
  const absolute = isAbsolute(given) ? given : resolve(given);
  // Synchronous file steps: each is a path lookup, far quicker than a round trip through libuv's
  // thread pool, and the run's planning waits on every one of them.
  let real: string;
  try {
    real = realpathSync.native(absolute);
  } catch {
    return { kind: 'refused', reason: 'missing', path: absolute, message: `${absolute}: no such target directory` };
  }
  // git prints the top level one path a line; a line break in it would name another directory.
  if (/[\r\n]/.test(real)) {
    return {
      kind: 'refused',
      reason: 'line-break-in-path',
      path: absolute,
      message: `${JSON.stringify(absolute)}: a target path holding a line break is not supported`,
    };
  }
  if (!statSync(real).isDirectory()) {
    return { kind: 'refused', reason: 'not-a-directory', path: absolute, message: `${absolute}: the target is not a directory` };
  }
  // One git call for every answer: each spawn is paid on every run. `--revs-only` prints the
  // commit and its tree when the revision names one, and nothing for it (still exiting 0) when it
  // does not; a revision that names more than one object (a range, a negation) prints other lines,
  // and names no base either. Some revisions make git stop with an error (`@{upstream}` with none
  // configured: exit 128) after it printed the first two answers, which still name the repository.
  const revision = base === undefined ? [] : ['--revs-only', '--end-of-options', `${base}^{commit}`, `${base}^{tree}`];
  const answer = await runGit(real, ['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-common-dir', '--git-dir', ...revision]);
  const printed = answer.ok || answer.exitCode !== undefined ? answer.stdout : '';
  const lines = printed.split('\n').filter((line) => line !== '');
  const [topLevel, commonDirectory, gitDirectory, ...named] = lines;
  if (topLevel === undefined || topLevel === '' || commonDirectory === undefined || commonDirectory === '' || gitDirectory === undefined) {
    // git's own words say which it is: no repository, a bare one, one git will not trust
    // (safe.directory), or no git at all.
    const said = answer.ok ? 'it has no working tree' : (answer.stderr.split('\n').find((line) => line.trim() !== '') ?? 'git failed');
    return {
      kind: 'refused',
      reason: 'not-a-repository',
      path: absolute,
      message: `${absolute}: not a git repository's checkout (a target must be one; git: ${said.trim()})`,
    };
  }
  const path = realpathSync.native(topLevel);
  const common = realpathSync.native(commonDirectory);
  const linked = realpathSync.native(gitDirectory) !== common;
  const target = { path, key: targetKey(linked ? await mainWorktreeOf(real, common) : path), commonDirectory: common };
  if (base === undefined) return { kind: 'resolved', target, base: 'not-asked' };
  const [commit, tree] = named;
  if (!answer.ok || named.length !== 2 || commit === undefined || tree === undefined || !OBJECT_NAME.test(commit) || !OBJECT_NAME.test(tree)) {
    return {
      kind: 'resolved',
      target,
      base: { kind: 'refused', message: `${path}: revision ${base} does not name a commit (a workspace needs a base commit)` },
    };
  }
  return { kind: 'resolved', target, base: { kind: 'resolved', commit, tree } };
}

/**
 * Where a linked worktree's (`git worktree add`) records are filed: under the repository it belongs
 * to, as its main worktree's top level — the key that checkout has as a target of its own — so a
 * run in either meets the same lock and chain (one repository, one target: R8.5). git lists the
 * main worktree first; a repository whose main worktree is bare has only its common directory.
 * Asked only for a linked worktree: one more git process there, none for a plain checkout.
 */
async function mainWorktreeOf(cwd: string, commonDirectory: string): Promise<string> {
  const listed = await runGit(cwd, ['worktree', 'list', '--porcelain']);
  const [first, ...rest] = (listed.ok ? listed.stdout : '').split('\n\n')[0]?.split('\n') ?? [];
  if (first === undefined || !first.startsWith('worktree ') || rest.includes('bare')) return commonDirectory;
  try {
    return realpathSync.native(first.slice('worktree '.length));
  } catch {
    return commonDirectory;
  }
}

const OBJECT_NAME = /^[0-9a-f]{40}$|^[0-9a-f]{64}$/;
