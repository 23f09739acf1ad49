import { gitReadingEnvironment } from '../coverage/git-for-reading.js';
import { runGitProcess } from '../git-process.js';
import { IGNORED_FILES_NOTE, type Candidate } from './candidate.js';
import { untrustedWorktreeGitOptions } from './registered-git-directory.js';
import type { WorkspaceHeadReading } from './prepare-workspace.js';

/** The fixed identity of a commit statecraft makes of the work tree (R13.2): never the operator's. */
export const STATECRAFT_GIT_IDENTITY = { name: 'statecraft', email: 'statecraft@statecraft.invalid' } as const;

/** How many ignored paths are named in the record; the count is always whole. */
const IGNORED_PATHS_NAMED = 20;

export type CandidateIdentification = { kind: 'identified'; candidate: Candidate } | { kind: 'not-identified'; message: string };

/**
 * Identifies the candidate of a completed attempt (R13.2), before its outcome is appended: the
 * workspace HEAD if the tree is clean, else a commit of the work tree (`git add -A`) with a fixed
 * statecraft identity and a message naming the run and attempt, on top of the agent's own commits.
 * Git runs with a constructed environment (no GIT_*, no system or global configuration) and no
 * hooks, so neither the operator's configuration nor the repository's hooks take part; and through
 * the workspace's registered git directory (`gitDirectory`), never the `.git` file the agent could
 * rewrite, with nothing in the workspace able to name a command git would run (R12).
 */
export async function identifyCandidate(
  input: { workspace: string; gitDirectory: string; baseCommit: string; runId: string; attempt: number },
  /**
   * Called once the work tree is settled (its commit, if any, made): only reads follow, so the
   * caller may read the workspace beside them. A tree found clean is settled as the status read
   * it, and its head is handed over: nothing has changed since, so no second status is needed.
   */
  onSettled: (clean: WorkspaceHeadReading | undefined) => void = () => undefined,
): Promise<CandidateIdentification> {
  const git = async (args: readonly string[]): Promise<{ ok: true; stdout: string } | { ok: false; message: string }> => {
    const options = untrustedWorktreeGitOptions(input.gitDirectory, input.workspace);
    const answer = await runGitProcess(input.workspace, [...options, '-c', 'core.hooksPath=/dev/null', ...args], gitReadingEnvironment());
    if (answer.exitCode === 0) return { ok: true, stdout: answer.stdout.toString('utf8') };
    const said = answer.stderr.toString('utf8').trim();
    return { ok: false, message: `git ${args.join(' ')} in ${input.workspace}: ${said === '' ? (answer.failure ?? 'failed') : said}` };
  };
  // Porcelain v2 with --branch: the same entries as v1, and the head's object name in a header.
  const status = await git(['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all', '--ignored=matching', '--ignore-submodules=dirty']);
  if (!status.ok) return { kind: 'not-identified', message: status.message };
  const entries = status.stdout.split('\0').filter((entry) => entry !== '');
  const ignored = entries.filter((entry) => entry.startsWith('! ')).map((entry) => entry.slice(2));
  // A rename's entry is followed by its source path, which has no status of its own: still dirty.
  const dirty = entries.some((entry) => !entry.startsWith('# ') && !entry.startsWith('! '));
  let madeBy: Candidate['madeBy'] = 'agent';
  if (dirty) {
    const added = await git(['add', '-A']);
    if (!added.ok) return { kind: 'not-identified', message: added.message };
    const committed = await git([
      '-c',
      `user.name=${STATECRAFT_GIT_IDENTITY.name}`,
      '-c',
      `user.email=${STATECRAFT_GIT_IDENTITY.email}`,
      '-c',
      'commit.gpgsign=false',
      'commit',
      '--quiet',
      '--no-verify',
      '--allow-empty-message',
      '-m',
      `statecraft: candidate of run ${input.runId} attempt ${input.attempt}`,
      '-m',
      `The work tree the agent left at the end of the attempt, committed by statecraft; ${IGNORED_FILES_NOTE}.`,
    ]);
    if (!committed.ok) return { kind: 'not-identified', message: committed.message };
    madeBy = 'statecraft';
  }
  onSettled(dirty ? undefined : { head: headOfStatus(entries), dirty: false });
  // Both read HEAD, which nothing moves any more (the attempt's processes are gone, statecraft's
  // commit is made): asked together, so the pair costs one git process's wait, not two.
  const [ids, changed] = await Promise.all([
    git(['rev-parse', 'HEAD', 'HEAD^{tree}']),
    git(['diff', '--name-only', '-z', '--no-renames', input.baseCommit, 'HEAD']),
  ]);
  if (!ids.ok) return { kind: 'not-identified', message: ids.message };
  const [commit, tree] = ids.stdout.trim().split('\n');
  if (commit === undefined || tree === undefined) return { kind: 'not-identified', message: `git rev-parse HEAD in ${input.workspace} gave no commit` };
  if (!changed.ok) return { kind: 'not-identified', message: changed.message };
  return {
    kind: 'identified',
    candidate: {
      commit,
      tree,
      madeBy,
      changedPaths: changed.stdout.split('\0').filter((path) => path !== ''),
      ignored: { note: IGNORED_FILES_NOTE, count: ignored.length, paths: ignored.slice(0, IGNORED_PATHS_NAMED) },
    },
  };
}

/** The head's object name from a porcelain v2 `--branch` header; `not-recorded` for an unborn branch. */
function headOfStatus(entries: readonly string[]): string {
  const oid = entries.find((entry) => entry.startsWith('# branch.oid '))?.slice('# branch.oid '.length);
  return oid !== undefined && /^[0-9a-f]{40,64}$/.test(oid) ? oid : 'not-recorded';
}
