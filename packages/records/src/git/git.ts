import { runGitProcess } from './git-process.js';

/** Variables that would point git somewhere other than the directory it is run in. */
const REDIRECTING_GIT_NAMES = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_COMMON_DIR', 'GIT_NAMESPACE'];

/**
 * Variables that hand git configuration, or a program to run, from somewhere other than where the
 * managed-path checks protect it (R12: the repository's git directory, ~/.gitconfig and
 * ~/.config/git in the operator's HOME, git's own installation): a GIT_CONFIG_GLOBAL naming a file
 * under a provider's directory (which an adapter may declare managed) would be a filter the agent
 * writes and statecraft's git runs, as the operator, outside the sandbox. Configuration given
 * directly (GIT_CONFIG_PARAMETERS, `git -c`'s carrier, and GIT_CONFIG_COUNT's numbered pairs) goes
 * with them: statecraft needs none of it. HOME stays, so the operator's ~/.gitconfig (its
 * `safe.directory`, say) is read as before; no identity is needed (a commit statecraft makes names
 * its own, identify-candidate.ts); no git statecraft runs here reaches a remote (GIT_SSH*).
 */
const ELSEWHERE_GIT_NAMES = [
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_SYSTEM',
  'GIT_CONFIG',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
  'GIT_EXEC_PATH',
  'GIT_TEMPLATE_DIR',
  'GIT_SSH',
  'GIT_SSH_COMMAND',
];

/** `stdout` on failure too: a combined query (resolve-target.ts) still answers its first parts. */
export type GitAnswer = { ok: true; stdout: string } | { ok: false; stdout: string; stderr: string; exitCode: number | undefined };

/**
 * Runs git in a directory, with no shell and no hooks: statecraft never runs the operator's
 * hooks (R8.6: nothing runs in the operator's checkout). The supervisor's own git variables are
 * removed so an inherited GIT_DIR cannot aim these commands at another repository, nor a
 * GIT_CONFIG_GLOBAL hand them configuration from a place no check protects. Output is text with
 * its final newline removed.
 */
export async function runGit(cwd: string, args: readonly string[], signal?: AbortSignal): Promise<GitAnswer> {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0' };
  for (const name of [...REDIRECTING_GIT_NAMES, ...ELSEWHERE_GIT_NAMES]) delete env[name];
  const answer = await runGitProcess(cwd, ['-c', 'core.hooksPath=/dev/null', ...args], env, undefined, signal);
  const stdout = answer.stdout.toString('utf8').replace(/\r?\n$/, '');
  if (answer.exitCode === 0) return { ok: true, stdout };
  return { ok: false, stdout, stderr: answer.stderr.toString('utf8').trim() || (answer.failure ?? 'git failed'), exitCode: answer.exitCode };
}
