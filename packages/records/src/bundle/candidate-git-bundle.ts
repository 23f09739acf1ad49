import { join } from 'node:path';
import type { ChainEntry } from '../chain/open-chain.js';
import { runGit } from '../git/git.js';
import type { BundleSource, NotExported } from './collect-bundle.js';

const GIT_BUNDLE_PATH = 'candidate.bundle';

/**
 * The run's candidate as a git bundle: its branch from its base commit, made by git in the
 * target repository (never in the agent's worktree, whose `.git` file it could rewrite), written
 * into `directory`. Only the candidate the records name is bundled: a branch that moved past it,
 * or a run with no committed candidate, is said as not exported.
 */
export async function candidateGitBundle(input: {
  target: string;
  entries: readonly ChainEntry[];
  runId: string;
  directory: string;
}): Promise<{ source: BundleSource } | { notExported: NotExported } | { none: true }> {
  const records = input.entries.map((entry) => entry.record);
  const intent = records.find((record) => record.kind === 'intent' && record.runId === input.runId);
  const candidate = records
    .flatMap((record) =>
      record.kind === 'outcome' && record.runId === input.runId && typeof record.candidate === 'object' && 'commit' in record.candidate
        ? [record.candidate.commit]
        : [],
    )
    .at(-1);
  if (intent?.kind !== 'intent' || candidate === undefined) return { none: true };
  const why = (message: string): { notExported: NotExported } => ({ notExported: { path: GIT_BUNDLE_PATH, why: message } });
  if (candidate === intent.baseCommit) return why('the candidate is the base commit: there is nothing to bundle');
  const branch = `refs/heads/${intent.branch}`;
  const tip = await runGit(input.target, ['rev-parse', '--verify', '--quiet', branch]);
  if (!tip.ok || tip.stdout !== candidate) return why(`${intent.branch} no longer points at the candidate ${candidate}`);
  const file = join(input.directory, GIT_BUNDLE_PATH);
  const made = await runGit(input.target, ['bundle', 'create', '--quiet', file, branch, `^${intent.baseCommit}`]);
  if (!made.ok) return why(`git bundle create in ${input.target}: ${made.stderr}`);
  return { source: { path: GIT_BUNDLE_PATH, role: 'git-bundle', from: { kind: 'file', path: file } } };
}
