import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GitIdentity } from '@statecraft/environment';
import { runGitProcess } from '@statecraft/records';

/** Long enough for a global configuration on a slow disk; an answer past it is an empty identity. */
const IDENTITY_TIMEOUT_MS = 10_000;

type Source = Readonly<Record<string, string | undefined>>;

/**
 * Reads the operator's git identity from their global configuration (`$XDG_CONFIG_HOME/git/config`
 * and `~/.gitconfig`, and what those include). Inside the boundary the home is hidden, and with it
 * that configuration: only the identity is carried in, never the rest (a credential helper, a URL
 * holding a token). Anything unread answers an empty identity.
 *
 * Read here when there is one file and it is plain (sections and `key = value` lines), as it
 * nearly always is: a git process on every launch and every suite is not needed to read two keys.
 * Anything else — both files, an include, a quoted or escaped value, a continued line — is read by
 * git itself, so the answer is always git's.
 */
export async function readOperatorGitIdentity(source: Source): Promise<GitIdentity> {
  return (await readPlainIdentity(source)) ?? readIdentityWithGit(source);
}

/** git's global files, or undefined when git would look elsewhere. */
function globalFiles(source: Source): string[] | undefined {
  const home = source.HOME;
  if (home === undefined || home === '') return undefined;
  const xdg = source.XDG_CONFIG_HOME;
  return [join(xdg === undefined || xdg === '' ? join(home, '.config') : xdg, 'git', 'config'), join(home, '.gitconfig')];
}

/** The identity the global files give, or undefined when they are not plain enough to be read without git. */
async function readPlainIdentity(source: Source): Promise<GitIdentity | undefined> {
  const files = globalFiles(source);
  if (files === undefined) return undefined;
  const texts: string[] = [];
  for (const file of files) {
    try {
      texts.push(UTF8.decode(await readFile(file)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      // Unreadable here, or bytes that are not UTF-8: git's to read (and to answer about).
      return undefined;
    }
  }
  // Whether `--global` reads both files or ~/.gitconfig alone differs between git versions.
  if (texts.length > 1) return undefined;
  const identity: GitIdentity = {};
  for (const text of texts) if (!readPlainUserKeys(text, identity)) return undefined;
  return identity;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const SECTION = /^\[([A-Za-z0-9.-]+)\]$/;
const ENTRY = /^([A-Za-z][A-Za-z0-9-]*)[ \t]*=[ \t]*(.*?)[ \t]*$/;

/** Reads `[user] name|email = value` into `identity`; false when the text holds what only git reads right. */
function readPlainUserKeys(text: string, identity: GitIdentity): boolean {
  // Quotes, escapes and continued lines change what a value is; other control characters and a
  // byte-order mark are read by git in ways of its own.
  if (/["\\\0\r\v\f\ufeff]/.test(text)) return false;
  let section: string | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/[#;].*$/, '').replace(/^[ \t]+|[ \t]+$/g, '');
    if (line === '') continue;
    if (line.startsWith('[')) {
      const header = SECTION.exec(line);
      // A subsection (`[user "x"]`, `[includeIf "..."]`) or anything else: git's to read.
      if (header === null) return false;
      section = header[1]?.toLowerCase();
      if (section === 'include' || section === 'includeif') return false;
      continue;
    }
    const entry = ENTRY.exec(line);
    // A key without `=` (a boolean), or a line git would refuse: git's to read.
    if (entry === null || section === undefined) return false;
    if (section !== 'user') continue;
    const key = entry[1]?.toLowerCase();
    // git gives each blank inside a value as one space; as the git reading below, an empty value is skipped.
    const value = (entry[2] ?? '').replace(/\t/g, ' ');
    if (value === '') continue;
    if (key === 'name') identity.name = value;
    if (key === 'email') identity.email = value;
  }
  return true;
}

async function readIdentityWithGit(source: Source): Promise<GitIdentity> {
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
