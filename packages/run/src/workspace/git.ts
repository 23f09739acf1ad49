import { runGitProcess } from '../git-process.js';

/** Variables that would point git somewhere other than the directory it is run in. */
const REDIRECTING_GIT_NAMES = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_COMMON_DIR', 'GIT_NAMESPACE'];

/** `stdout` on failure too: a combined query (resolve-target.ts) still answers its first parts. */
export type GitAnswer = { ok: true; stdout: string } | { ok: false; stdout: string; stderr: string; exitCode: number | undefined };

/**
 * Runs git in a directory, with no shell and no hooks: statecraft never runs the operator's
 * hooks (R8.6: nothing runs in the operator's checkout). The supervisor's own git variables are
 * removed so an inherited GIT_DIR cannot aim these commands at another repository. Output is
 * text with its final newline removed.
 */
export async function runGit(cwd: string, args: readonly string[], signal?: AbortSignal): Promise<GitAnswer> {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0' };
  for (const name of REDIRECTING_GIT_NAMES) delete env[name];
  const answer = await runGitProcess(cwd, ['-c', 'core.hooksPath=/dev/null', ...args], env, undefined, signal);
  const stdout = answer.stdout.toString('utf8').replace(/\r?\n$/, '');
  if (answer.exitCode === 0) return { ok: true, stdout };
  return { ok: false, stdout, stderr: answer.stderr.toString('utf8').trim() || (answer.failure ?? 'git failed'), exitCode: answer.exitCode };
}
