import { runGitProcess } from '@statecraft/records';

/**
 * The only environment git gets when coverage reads the base commit (R9.4). Built, not filtered
 * (R5.1): no `GIT_*` name of the caller survives (GIT_DIR, GIT_INDEX_FILE, GIT_CONFIG_* … would
 * aim the reading at another repository or inject configuration), system and global
 * configuration are off, and HOME points at nothing, so no personal file takes part.
 */
export function gitReadingEnvironment(source: Readonly<Record<string, string | undefined>> = process.env): Record<string, string> {
  return {
    PATH: source.PATH ?? '/usr/bin:/bin',
    HOME: '/nonexistent',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    LC_ALL: 'C',
  };
}

export type GitReadAnswer = { ok: true; stdout: Uint8Array } | { ok: false; message: string };

/** Runs one read-only git command in the repository, with no shell and the environment above; `input` is its stdin. */
export async function runGitForReading(repository: string, args: readonly string[], input?: string): Promise<GitReadAnswer> {
  // The bytes as stored, final newline kept: a stripped one would change the digest against the working tree.
  const answer = await runGitProcess(repository, ['--literal-pathspecs', '-c', 'core.hooksPath=/dev/null', ...args], gitReadingEnvironment(), input);
  if (answer.exitCode === 0) return { ok: true, stdout: answer.stdout };
  const stderr = answer.stderr.toString('utf8').trim();
  return { ok: false, message: stderr === '' ? (answer.failure ?? 'git failed') : stderr };
}
