import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runGitForReading } from './git-for-reading.js';

/**
 * Where a coverage input is read from (R9.4): the working tree at planning, a commit (as git
 * holds it) at launch. The commit is resolved to its full object name before anything is read,
 * unless the caller says it already was (`resolved`: launch's base, resolved at planning).
 */
export type CoverageSource =
  | { kind: 'working-tree' }
  | {
      kind: 'commit';
      commit: string;
      resolved?: boolean;
      /**
       * The commit's whole listing (`git ls-tree -r -z --full-tree <commit>`), when the caller
       * already has it: each input's entry is found there, not asked of git once more.
       */
      listing?: Uint8Array;
    };

export type InputFileReading =
  | { kind: 'found'; bytes: Uint8Array }
  | { kind: 'absent' }
  /** A directory, a symbolic link or a submodule: not read, since its bytes are not the file's. */
  | { kind: 'not-a-file'; what: string }
  | { kind: 'failed'; message: string };

/** Reads one repository-relative file from the working tree. */
async function readWorkingTreeFile(repository: string, path: string): Promise<InputFileReading> {
  const full = join(repository, path);
  try {
    const info = await lstat(full);
    if (!info.isFile())
      return { kind: 'not-a-file', what: info.isSymbolicLink() ? 'a symbolic link' : info.isDirectory() ? 'a directory' : 'not a regular file' };
    return { kind: 'found', bytes: await readFile(full) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'absent' };
    return { kind: 'failed', message: `${full}: cannot read (${code ?? String(error)})` };
  }
}

/**
 * Reads one file as the commit holds it: `git ls-tree` finds the entry, `git cat-file blob`
 * gives its stored bytes. Never the workspace, and never `git archive` or `git show`, whose
 * attribute filters and textconv could rewrite what is read (R9.4).
 */
async function readCommittedFile(repository: string, commit: string, path: string, wholeListing?: Uint8Array): Promise<InputFileReading> {
  let entry: string | undefined;
  if (wholeListing === undefined) {
    const listing = await runGitForReading(repository, ['ls-tree', '-z', '--full-tree', commit, '--', path]);
    if (!listing.ok) return { kind: 'failed', message: `git ls-tree ${commit} -- ${path}: ${listing.message}` };
    entry = new TextDecoder()
      .decode(listing.stdout)
      .split('\0')
      .find((line) => line.endsWith(`\t${path}`));
  } else {
    entry = entryInWholeListing(wholeListing, path);
  }
  if (entry === undefined) return { kind: 'absent' };
  const [mode, type, object] = entry.slice(0, entry.indexOf('\t')).split(' ');
  if (type !== 'blob' || (mode !== '100644' && mode !== '100755') || object === undefined) {
    return { kind: 'not-a-file', what: mode === '120000' ? 'a symbolic link' : type === 'tree' ? 'a directory' : `a ${type ?? 'non-file'} entry` };
  }
  const blob = await runGitForReading(repository, ['cat-file', 'blob', object]);
  if (!blob.ok) return { kind: 'failed', message: `git cat-file blob ${object} (${path}): ${blob.message}` };
  return { kind: 'found', bytes: blob.stdout };
}

/**
 * A path's entry in a recursive listing, as the one-path `ls-tree` gives it. A recursive listing
 * names no directory, only what is under one: a path with entries below it is given as the tree
 * entry it is, so a directory still reads as one.
 */
function entryInWholeListing(listing: Uint8Array, path: string): string | undefined {
  const entries = new TextDecoder()
    .decode(listing)
    .split('\0')
    .filter((line) => line.includes('\t'))
    .map((line) => ({ line, path: line.slice(line.indexOf('\t') + 1) }));
  const exact = entries.find((entry) => entry.path === path);
  if (exact !== undefined) return exact.line;
  return entries.some((entry) => entry.path.startsWith(`${path}/`)) ? `040000 tree -\t${path}` : undefined;
}

/** The commit's full object name, or why it is not a commit. */
export async function resolveCommit(repository: string, commit: string): Promise<{ ok: true; commit: string } | { ok: false; message: string }> {
  const answer = await runGitForReading(repository, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${commit}^{commit}`]);
  if (!answer.ok) return { ok: false, message: `${repository}: "${commit}" is not a commit of this repository` };
  return { ok: true, commit: new TextDecoder().decode(answer.stdout).trim() };
}

export function readInputFile(repository: string, source: CoverageSource, path: string): Promise<InputFileReading> {
  return source.kind === 'working-tree' ? readWorkingTreeFile(repository, path) : readCommittedFile(repository, source.commit, path, source.listing);
}
