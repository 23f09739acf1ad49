import { realpath, stat } from 'node:fs/promises';
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

export type TargetResolution =
  | { kind: 'resolved'; target: ResolvedTarget }
  | { kind: 'refused'; reason: 'missing' | 'not-a-directory' | 'not-a-repository'; path: string; message: string };

/** Resolves `<target>` to the top level of a git repository, or refuses naming the path. */
export async function resolveTarget(given: string): Promise<TargetResolution> {
  const absolute = isAbsolute(given) ? given : resolve(given);
  let real: string;
  try {
    real = await realpath(absolute);
  } catch {
    return { kind: 'refused', reason: 'missing', path: absolute, message: `${absolute}: no such target directory` };
  }
  if (!(await stat(real)).isDirectory()) {
    return { kind: 'refused', reason: 'not-a-directory', path: absolute, message: `${absolute}: the target is not a directory` };
  }
  // One git call for both answers: every spawn is paid on every run.
  const answer = await runGit(real, ['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-common-dir']);
  const [topLevel, commonDirectory] = answer.ok ? answer.stdout.split('\n') : [];
  if (topLevel === undefined || topLevel === '' || commonDirectory === undefined || commonDirectory === '') {
    return { kind: 'refused', reason: 'not-a-repository', path: absolute, message: `${absolute}: not a git repository (a target must be one)` };
  }
  const path = await realpath(topLevel);
  return { kind: 'resolved', target: { path, key: targetKey(path), commonDirectory: await realpath(commonDirectory) } };
}
