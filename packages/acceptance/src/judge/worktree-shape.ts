import { createHash } from 'node:crypto';
import { lstat, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Each entry of a worktree but its `.git`, by path relative to it (`''` for the worktree itself):
 * its type and permission bits; and under INDEX, the digest of its git directory's index.
 */
export type WorktreeShape = ReadonlyMap<string, string>;

/** No relative path starts with a slash. */
const INDEX = '/index';

/**
 * The worktree as the file system holds it (R13.3): every entry's type and mode, which `git status`
 * does not compare. Git lists only regular files and links, and of them only content and the
 * executable bit: an empty directory, a named pipe or a socket an earlier check made, a mode it
 * changed, or a file it put in a gitlink's empty directory would otherwise reach the checks after
 * it, which read them. Links are not followed. The index too: a check that can write it (under
 * `--boundary none`) marks a tracked file skip-worktree or assume-unchanged, rewrites it, and git
 * reads the tree clean; statecraft's own reading never writes it (`--no-optional-locks`).
 */
export async function readWorktreeShape(worktree: string, gitDir: string): Promise<WorktreeShape> {
  const shape = new Map<string, string>();
  const index = await readFile(join(gitDir, 'index')).catch(() => undefined);
  shape.set(INDEX, index === undefined ? 'unreadable' : createHash('sha256').update(index).digest('hex'));
  const visit = async (relative: string): Promise<void> => {
    const path = relative === '' ? worktree : join(worktree, relative);
    const entry = await lstat(path);
    shape.set(relative, `${kindOf(entry)} ${(entry.mode & 0o7777).toString(8)}`);
    if (!entry.isDirectory()) return;
    for (const name of await readdir(path)) {
      if (relative === '' && name === '.git') continue;
      await visit(relative === '' ? name : join(relative, name));
    }
  };
  await visit('');
  return shape;
}

/**
 * Brings the worktree back to `made` after a check: what was not there is removed (an entry git
 * does not list, since its reading already removed what git ignores and named what it sees); an
 * entry whose type or mode changed is named, as a changed tree is. Answers the paths named, and
 * those that could not be removed.
 */
export async function restoreWorktreeShape(worktree: string, gitDir: string, made: WorktreeShape): Promise<string[]> {
  const now = await readWorktreeShape(worktree, gitDir).catch((error: unknown) => new Map([['', `unreadable ${(error as Error).message}`]]));
  const named: string[] = [];
  const added: string[] = [];
  for (const [path, shape] of now) {
    const was = made.get(path);
    if (path === INDEX) {
      if (was !== shape) named.push(`${join(gitDir, 'index')} (changed by a check)`);
    } else if (was === undefined) {
      // Only the topmost new entry: what lies below goes with it.
      if (!added.some((above) => path.startsWith(`${above}/`))) added.push(path);
    } else if (was !== shape) named.push(path === '' ? '.' : `${path} (${was} before, ${shape} now)`);
  }
  for (const path of made.keys()) if (!now.has(path)) named.push(`${path} (gone)`);
  for (const path of added) {
    // fs.rm follows no link; the parent is one the candidate had, checked unchanged above.
    const gone = await rm(join(worktree, path), { recursive: true, force: true }).then(
      () => true,
      () => false,
    );
    if (!gone) named.push(path);
  }
  return named;
}

function kindOf(entry: Awaited<ReturnType<typeof lstat>>): string {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  if (entry.isSymbolicLink()) return 'link';
  if (entry.isFIFO()) return 'pipe';
  if (entry.isSocket()) return 'socket';
  return 'device';
}
