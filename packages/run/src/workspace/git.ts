import { execa } from 'execa';

/** Variables that would point git somewhere other than the directory it is run in. */
const REDIRECTING_GIT_NAMES = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_COMMON_DIR', 'GIT_NAMESPACE'];

export type GitAnswer = { ok: true; stdout: string } | { ok: false; stderr: string; exitCode: number | undefined };

/**
 * Runs git in a directory, with no shell and no hooks: statecraft never runs the operator's
 * hooks (R8.6: nothing runs in the operator's checkout). The supervisor's own git variables are
 * removed so an inherited GIT_DIR cannot aim these commands at another repository.
 */
export async function runGit(cwd: string, args: readonly string[]): Promise<GitAnswer> {
  const env: Record<string, string | undefined> = { GIT_TERMINAL_PROMPT: '0' };
  for (const name of REDIRECTING_GIT_NAMES) env[name] = undefined;
  const answer = await execa('git', ['-c', 'core.hooksPath=/dev/null', ...args], { cwd, env, reject: false, stripFinalNewline: true });
  if (answer.exitCode === 0) return { ok: true, stdout: answer.stdout };
  return { ok: false, stderr: answer.stderr.trim() || (answer.shortMessage ?? 'git failed'), exitCode: answer.exitCode };
}
