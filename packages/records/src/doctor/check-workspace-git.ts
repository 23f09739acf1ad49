import { existsSync } from 'node:fs';
import { lstat, readFile, realpath } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { registeredGitDirectory } from '../git/registered-git-directory.js';
import { workspaceGitChanges } from '../git/workspace-git-as-made.js';
import type { AttemptAccount } from '../read/attempt-account.js';
import type { Finding } from './examine-product-home.js';

/**
 * Each workspace the chain's attempts ran in, still there, whose git is not what statecraft made
 * (workspace-git-as-made.ts): its `.git` pointer replaced (a directory, a link, a file naming
 * elsewhere), its registration's `commondir` changed or a `config.worktree` added, or no
 * registration of the repository naming it at all. The operator's own git, run there, would obey
 * whatever that configuration says (`core.fsmonitor`, `core.hooksPath`, a filter …). The end of an
 * attempt puts it back; one whose supervisor stopped first, or a change made since, is named here.
 * A workspace whose attempt is running is not judged (its agent may be writing it). Read from the
 * file system alone: no git is run where it would obey that configuration.
 */
export async function checkWorkspaceGit(accounts: readonly AttemptAccount[]): Promise<Finding[]> {
  const running = new Set(accounts.filter((account) => account.state === 'running').map((account) => account.runId));
  const workspaces = new Map<string, { target: string; runId: string }>();
  for (const account of accounts) {
    if (!running.has(account.runId)) workspaces.set(account.workspace, { target: account.target, runId: account.runId });
  }
  const findings: Finding[] = [];
  for (const [workspace, { target, runId }] of workspaces) {
    if (!existsSync(workspace)) continue;
    const common = await commonDirectoryOf(target);
    if (common === undefined) continue;
    const gitDirectory = await registeredGitDirectory(common, workspace);
    const changes =
      gitDirectory === undefined
        ? [`no worktree of ${common} is registered at it, so nothing says what its .git should name`]
        : (await workspaceGitChanges(workspace, gitDirectory)).map((change) => `${change.path} is ${change.what}`);
    if (changes.length === 0) continue;
    findings.push({
      kind: 'workspace-git-changed',
      path: workspace,
      message:
        `${workspace} (run ${runId}): its git is not what statecraft made — ${changes.join('; ')}. A git run there, the operator's own ` +
        `included, obeys that configuration and runs what it names; do not run git in it. doctor repairs nothing: the end of ` +
        `\`statecraft run ${target} --retry ${runId}\` restores it, or remove the directory and run \`git worktree prune\` in ${target}`,
    });
  }
  return findings;
}

/**
 * The repository's common git directory, real, read from the target's `.git` as git reads it (a
 * directory, or a file naming a linked worktree's git directory and that one's `commondir`);
 * undefined when it is neither. The target is the operator's checkout, which no agent writes.
 */
async function commonDirectoryOf(target: string): Promise<string | undefined> {
  const dotGit = join(target, '.git');
  const found = await lstat(dotGit).catch(() => undefined);
  if (found === undefined) return undefined;
  if (found.isDirectory()) return realpath(dotGit).catch(() => undefined);
  if (!found.isFile()) return undefined;
  const pointer = /^gitdir: (.+)$/m.exec(await readFile(dotGit, 'utf8').catch(() => ''))?.[1];
  if (pointer === undefined) return undefined;
  const gitDirectory = resolve(dirname(dotGit), pointer.trim());
  const common = await readFile(join(gitDirectory, 'commondir'), 'utf8').catch(() => undefined);
  return realpath(common === undefined ? gitDirectory : resolve(gitDirectory, common.trim())).catch(() => undefined);
}
