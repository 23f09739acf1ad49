import { lstatSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The most directory entries read below a managed path when looking for a git repository in it.
 * A provider's configuration directory holds a few thousand; reading one costs a few microseconds,
 * so the bound keeps the check, which runs before every launch, within a fraction of a second.
 */
export const GIT_SEARCH_ENTRY_BOUND = 100_000;

/** What a managed path has to do with a git repository, read from the file system alone (no git is run). */
export type GitRepositoryReach =
  | { kind: 'none' }
  /** `repository`: a directory with a `.git` entry (a work tree); `git-directory`: one holding HEAD, objects and refs. */
  | { kind: 'reaches'; relation: 'is' | 'is inside' | 'holds'; found: 'repository' | 'git-directory'; at: string }
  | { kind: 'too-large'; bound: number }
  | { kind: 'unreadable'; directory: string; code: string };

/**
 * Whether a managed path (real: its links resolved) is, lies inside or holds a git repository or a
 * git directory. Bound writable, it would let the agent write that repository's configuration — a
 * filter there is a command the next git run in it starts, and statecraft's own git runs as the
 * operator, outside the sandbox, in any repository it is later pointed at (a hostile pass,
 * 2026-12-02: another repository's `.git`, declared managed, ran the agent's filter at that
 * repository's next `statecraft run`). Every ancestor is looked at; below the path, what exists is
 * read up to `bound` entries, links not followed (a link is bound as a link: what it leads to stays
 * read-only inside the sandbox).
 */
export function gitRepositoryReach(real: string, bound = GIT_SEARCH_ENTRY_BOUND): GitRepositoryReach {
  for (let directory = real; ; directory = dirname(directory)) {
    const found = gitEntryIn(directory);
    if (found !== undefined) return { kind: 'reaches', relation: directory === real ? 'is' : 'is inside', found, at: directory };
    if (dirname(directory) === directory) break;
  }
  return repositoryBelow(real, bound);
}

/** What makes a directory part of git: a `.git` entry of any kind (a directory, or a file naming one), or being a git directory itself. */
function gitEntryIn(directory: string): 'repository' | 'git-directory' | undefined {
  if (exists(join(directory, '.git'))) return 'repository';
  if (GIT_DIRECTORY_ENTRIES.every((name) => exists(join(directory, name)))) return 'git-directory';
  return undefined;
}

/** What git itself looks for to take a directory for a git directory (setup.c, `is_git_directory`). */
const GIT_DIRECTORY_ENTRIES = ['HEAD', 'objects', 'refs'] as const;

function exists(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
}

/** The directories below `real`, breadth first, each listing read once: a `.git` name or a git directory's three names end the search. */
function repositoryBelow(real: string, bound: number): GitRepositoryReach {
  if (lstatSync(real, { throwIfNoEntry: false })?.isDirectory() !== true) return { kind: 'none' };
  const waiting = [real];
  let read = 0;
  for (let next = 0; next < waiting.length; next += 1) {
    const directory = waiting[next]!;
    let entries;
    try {
      entries = readdirSync(directory, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
      // Gone since it was listed: nothing is left there to bind.
      if (code === 'ENOENT') continue;
      return { kind: 'unreadable', directory, code };
    }
    read += entries.length;
    if (read > bound) return { kind: 'too-large', bound };
    const names = new Set(entries.map((entry) => entry.name));
    if (directory !== real) {
      if (names.has('.git')) return { kind: 'reaches', relation: 'holds', found: 'repository', at: directory };
      if (GIT_DIRECTORY_ENTRIES.every((name) => names.has(name))) return { kind: 'reaches', relation: 'holds', found: 'git-directory', at: directory };
    }
    for (const entry of entries) if (entry.isDirectory()) waiting.push(join(directory, entry.name));
  }
  return { kind: 'none' };
}
