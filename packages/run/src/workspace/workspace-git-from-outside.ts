import { gitReadingEnvironment } from '../coverage/git-for-reading.js';
import { runGitProcess } from '@statecraft/records';
import type { EndOfAttemptGit } from './end-of-attempt-git.js';
import { untrustedWorktreeGitOptions } from '@statecraft/records';

/** What git over a workspace answered: its stdout, or a message naming the command and the workspace. */
export type WorkspaceGitAnswer = { ok: true; stdout: string } | { ok: false; message: string };

/** Runs one git command over the workspace; `environment` adds to the constructed one (a scratch index). */
export type WorkspaceGit = (args: readonly string[], environment?: Record<string, string>) => Promise<WorkspaceGitAnswer>;

/**
 * Git over an agent's workspace, run as the operator outside the sandbox (R12): through the git
 * directory the repository registered for it (never the worktree's own `.git` file, which the agent
 * could rewrite), with a constructed environment and no hooks. Answers, never rejects. Killed at
 * `stop.signal`; `stop.stopped` is then told, so the index lock a killed git leaves can be removed
 * once nothing else can hold it. The attempt's start and its candidate both read the workspace so.
 */
export function workspaceGitFromOutside(workspace: string, gitDirectory: string, stop?: EndOfAttemptGit): WorkspaceGit {
  return async (args, environment = {}) => {
    const options = untrustedWorktreeGitOptions(gitDirectory, workspace);
    const answer = await runGitProcess(
      workspace,
      [...options, '-c', 'core.hooksPath=/dev/null', ...args],
      { ...gitReadingEnvironment(), ...environment },
      undefined,
      stop?.signal,
    );
    if (answer.stopped !== undefined) {
      await stop?.stopped(gitDirectory);
      return { ok: false, message: `git ${args.join(' ')} in ${workspace} was stopped: ${answer.stopped}` };
    }
    if (answer.exitCode === 0) return { ok: true, stdout: answer.stdout.toString('utf8') };
    const said = answer.stderr.toString('utf8').trim();
    return { ok: false, message: `git ${args.join(' ')} in ${workspace}: ${said === '' ? (answer.failure ?? 'failed') : said}` };
  };
}
