import type { GitIdentity } from '@statecraft/environment';
import { runGitProcess } from '@statecraft/records';

/** Long enough for a global configuration on a slow disk; an answer past it is an empty identity. */
const IDENTITY_TIMEOUT_MS = 10_000;

/**
 * Reads the operator's git identity from their global configuration (`~/.gitconfig`,
 * `$XDG_CONFIG_HOME/git/config`, and what those include), with git itself. Inside the boundary
 * the home is hidden, and with it that configuration: only the identity is carried in, never the
 * rest (a credential helper, a URL holding a token). Anything unread answers an empty identity.
 */
export async function readOperatorGitIdentity(source: Readonly<Record<string, string | undefined>>): Promise<GitIdentity> {
  const environment: Record<string, string> = { GIT_CONFIG_NOSYSTEM: '1' };
  for (const name of ['PATH', 'HOME', 'XDG_CONFIG_HOME'] as const) {
    const value = source[name];
    if (value !== undefined) environment[name] = value;
  }
  // From `/`: `--global` reads no repository's configuration, wherever git starts.
  const answer = await runGitProcess(
    '/',
    ['config', '--global', '--includes', '-z', '--get-regexp', '^user\\.(name|email)$'],
    environment,
    undefined,
    AbortSignal.timeout(IDENTITY_TIMEOUT_MS),
  );
  const identity: GitIdentity = {};
  for (const entry of answer.stdout.toString('utf8').split('\0')) {
    const [key, ...value] = entry.split('\n');
    const text = value.join('\n');
    if (text === '' || text.includes('\n')) continue;
    if (key === 'user.name') identity.name = text;
    if (key === 'user.email') identity.email = text;
  }
  return identity;
}
