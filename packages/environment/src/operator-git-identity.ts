import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The variable that points the child's git at the identity file (git reads it in place of `~/.gitconfig`). */
const GIT_IDENTITY_VARIABLE = 'GIT_CONFIG_GLOBAL';

/** The operator's `user.name` and `user.email`, as their global git configuration gives them. */
export interface GitIdentity {
  name?: string;
  email?: string;
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
