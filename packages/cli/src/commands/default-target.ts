import { dirname, join, resolve, sep } from 'node:path';
import { UsageError } from '../errors.js';
import { loadRecords } from './load-packages.js';

/**
 * The target a verb works on when none is named: the repository containing the current
 * directory. Inside an attempt's workspace (a worktree statecraft placed under the repository's
 * `.statecraft/`), that is the repository the attempt was run against, not the workspace: its
 * records are the repository's. Outside any repository, a usage error (exit 3) saying so.
 */
export async function targetOrCurrentRepository(given: string | undefined): Promise<string> {
  if (given !== undefined) return given;
  const cwd = process.cwd();
  // The common directory may be given relative to `cwd` (git before 2.31 has no --path-format).
  const { runGit } = await loadRecords();
  const answer = await runGit(cwd, ['rev-parse', '--show-toplevel', '--git-common-dir']);
  const [topLevel, commonDirectory] = answer.ok ? answer.stdout.split('\n') : [];
  if (topLevel === undefined || topLevel === '' || commonDirectory === undefined)
    throw new UsageError(`no target was named and ${cwd} is not inside a git repository`, 'name the repository, or run this inside it');
  const repository = dirname(resolve(cwd, commonDirectory));
  return topLevel.startsWith(join(repository, '.statecraft') + sep) ? repository : topLevel;
}
