import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The variable that points the child's git at the identity file (git reads it in place of `~/.gitconfig`). */
export const GIT_IDENTITY_VARIABLE = 'GIT_CONFIG_GLOBAL';

/** The operator's `user.name` and `user.email`, as their global git configuration gives them. */
export interface GitIdentity {
  name?: string;
  email?: string;
}

/**
 * Reads the operator's git identity from their global configuration (`~/.gitconfig`,
 * `$XDG_CONFIG_HOME/git/config`, and what those include), with git itself. Inside the boundary
 * the home is hidden, and with it that configuration: only the identity is carried in, never the
 * rest (a credential helper, a URL holding a token). Anything unread answers an empty identity.
 */
export function readOperatorGitIdentity(source: Readonly<Record<string, string | undefined>>): Promise<GitIdentity> {
  const environment: Record<string, string> = { GIT_CONFIG_NOSYSTEM: '1' };
  for (const name of ['PATH', 'HOME', 'XDG_CONFIG_HOME'] as const) {
    const value = source[name];
    if (value !== undefined) environment[name] = value;
  }
  return new Promise((resolve) => {
    execFile(
      'git',
      ['config', '--global', '--includes', '-z', '--get-regexp', '^user\\.(name|email)$'],
      { env: environment, timeout: 10_000, maxBuffer: 64 * 1024 },
      (_error, stdout) => {
        const identity: GitIdentity = {};
        for (const entry of String(stdout).split('\0')) {
          const [key, ...value] = entry.split('\n');
          const text = value.join('\n');
          if (text === '' || text.includes('\n')) continue;
          if (key === 'user.name') identity.name = text;
          if (key === 'user.email') identity.email = text;
        }
        resolve(identity);
      },
    );
  });
}

/** A value in git's configuration syntax: quoted, with its backslashes and quotes escaped. */
function quoted(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * Writes the identity as a git configuration file in the attempt's private TMPDIR, for
 * `GIT_CONFIG_GLOBAL`: the child's commits are attributed to the operator, and a repository's own
 * `user.*` still wins (it is read after the global file). Answers the file, or nothing when the
 * operator has no identity to carry.
 */
export function writeGitIdentityFile(identity: GitIdentity, temporaryDirectory: string): string | undefined {
  const lines = [
    ...(identity.name === undefined ? [] : [`\tname = ${quoted(identity.name)}`]),
    ...(identity.email === undefined ? [] : [`\temail = ${quoted(identity.email)}`]),
  ];
  if (lines.length === 0) return undefined;
  const path = join(temporaryDirectory, 'statecraft-git-identity');
  writeFileSync(path, `[user]\n${lines.join('\n')}\n`, { mode: 0o600, flag: 'wx' });
  return path;
}

/** The supervisor-set name that points the child's git at the identity file, when there is one. */
export function gitIdentityBinding(file: string | undefined): { name: string; value: string; why: string }[] {
  return file === undefined
    ? []
    : [
        {
          name: GIT_IDENTITY_VARIABLE,
          value: file,
          why: "the operator's git identity (user.name, user.email), carried in while the boundary hides their home",
        },
      ];
}
