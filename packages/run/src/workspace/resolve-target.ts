import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { targetKey } from '@statecraft/environment';
import { runGit } from './git.js';

export interface ResolvedTarget {
  /** The repository's top level, absolute and real (symlinks resolved). */
  path: string;
  /** The key its records are filed under in the product home. */
  key: string;
  /** The repository's common git directory (shared by its worktrees), absolute and real. */
  commonDirectory: string;
}

/** The base commit (R8.6): the revision's full object name, or why it names no commit. */
export type BaseResolution = { kind: 'resolved'; commit: string } | { kind: 'refused'; message: string };

export type TargetResolution =
  | { kind: 'resolved'; target: ResolvedTarget; base: BaseResolution | 'not-asked' }
  | { kind: 'refused'; reason: 'missing' | 'not-a-directory' | 'not-a-repository'; path: string; message: string };

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
  if (!statSync(real).isDirectory()) {
    return { kind: 'refused', reason: 'not-a-directory', path: absolute, message: `${absolute}: the target is not a directory` };
  }
  // One git call for every answer: each spawn is paid on every run. With --verify, git still
  // prints the first two answers when the revision names no commit, and exits 1.
  const revision = base === undefined ? [] : ['--verify', '--quiet', '--end-of-options', `${base}^{commit}`];
  const answer = await runGit(real, ['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-common-dir', ...revision]);
  const [topLevel, commonDirectory, commit] = answer.ok || answer.exitCode === 1 ? answer.stdout.split('\n') : [];
  if (topLevel === undefined || topLevel === '' || commonDirectory === undefined || commonDirectory === '') {
    return { kind: 'refused', reason: 'not-a-repository', path: absolute, message: `${absolute}: not a git repository (a target must be one)` };
  }
  const path = realpathSync.native(topLevel);
  const target = { path, key: targetKey(path), commonDirectory: realpathSync.native(commonDirectory) };
  if (base === undefined) return { kind: 'resolved', target, base: 'not-asked' };
  if (!answer.ok || commit === undefined || !/^[0-9a-f]{40,64}$/.test(commit)) {
    return {
      kind: 'resolved',
      target,
      base: { kind: 'refused', message: `${path}: revision ${base} does not name a commit (a workspace needs a base commit)` },
    };
  }
  return { kind: 'resolved', target, base: { kind: 'resolved', commit } };
}
