import { constants } from 'node:fs';
import { lstat, open, readlink, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * What git reads from a workspace before anything else, and what statecraft made of it (`git
 * worktree add`): the `.git` file naming the registered git directory, that directory's `commondir`
 * (`../..`, the repository's own git directory) and no `config.worktree` (git obeys one there when
 * the repository sets `extensions.worktreeConfig`). Anything else is configuration of whoever
 * wrote it — an agent's `core.fsmonitor`, `core.hooksPath`, `core.pager`, `diff.external`, a
 * filter — which the operator's own git, run in the workspace path `run` prints, would execute.
 */
export interface WorkspaceGitChange {
  /** The file or directory that is not as statecraft made it. */
  path: string;
  /** What stands there instead, in words. */
  what: string;
}

/** The bytes `git worktree add` writes into the workspace's `.git` file, and statecraft writes back. */
function workspaceGitPointer(gitDirectory: string): string {
  return `gitdir: ${gitDirectory}\n`;
}

const COMMON_DIRECTORY_POINTER = '../..\n';
/** Larger than any pointer git writes; what is read of a file that should be one. */
const POINTER_BYTES = 8192;

/**
 * How the workspace's git pointer and its registered git directory differ from what statecraft
 * made, read from the file system alone (no git is run: a git run there would obey the very
 * configuration in question). Empty when they are as made.
 */
export async function workspaceGitChanges(workspace: string, gitDirectory: string): Promise<WorkspaceGitChange[]> {
  const changes: WorkspaceGitChange[] = [];
  const pointer = await pointerChange(join(workspace, '.git'), workspaceGitPointer(gitDirectory));
  if (pointer !== undefined) changes.push(pointer);
  const common = await pointerChange(join(gitDirectory, 'commondir'), COMMON_DIRECTORY_POINTER);
  if (common !== undefined) changes.push(common);
  const worktreeConfig = join(gitDirectory, 'config.worktree');
  if ((await lstat(worktreeConfig).catch(() => undefined)) !== undefined) {
    changes.push({ path: worktreeConfig, what: 'a per-worktree configuration statecraft did not write (git obeys it under extensions.worktreeConfig)' });
  }
  return changes;
}

export type WorkspaceGitRestoration = { restored: WorkspaceGitChange[] } | { restored: WorkspaceGitChange[]; failed: string };

/**
 * Puts back what statecraft made (workspaceGitChanges) once nothing of the attempt runs: whatever
 * stands in a pointer's place — a directory, a symbolic link (removed, never followed), a file
 * naming elsewhere — is removed and the pointer written again; a `config.worktree` is removed.
 * Never rejects: what could not be put back is named.
 */
export async function restoreWorkspaceGit(workspace: string, gitDirectory: string): Promise<WorkspaceGitRestoration> {
  const changes = await workspaceGitChanges(workspace, gitDirectory).catch((error: unknown) => (error as Error).message);
  if (typeof changes === 'string') return { restored: [], failed: `cannot read ${join(workspace, '.git')} (${changes})` };
  const restored: WorkspaceGitChange[] = [];
  for (const change of changes) {
    try {
      await rm(change.path, { recursive: true, force: true });
      if (change.path === join(workspace, '.git')) await writeFile(change.path, workspaceGitPointer(gitDirectory), { flag: 'wx', mode: 0o644 });
      if (change.path === join(gitDirectory, 'commondir')) await writeFile(change.path, COMMON_DIRECTORY_POINTER, { flag: 'wx', mode: 0o644 });
      restored.push(change);
    } catch (error) {
      return { restored, failed: `cannot restore ${change.path}, ${change.what} (${(error as Error).message})` };
    }
  }
  return { restored };
}

/** How a pointer file differs from `expected`, or nothing when it holds exactly that. */
async function pointerChange(path: string, expected: string): Promise<WorkspaceGitChange | undefined> {
  const found = await lstat(path).catch((error: unknown) => error as NodeJS.ErrnoException);
  if (found instanceof Error) return { path, what: found.code === 'ENOENT' ? 'missing' : `unreadable (${found.code ?? found.message})` };
  if (found.isSymbolicLink())
    return {
      path,
      what: `a symbolic link to ${await readlink(path).then(
        (target) => JSON.stringify(target),
        () => 'an unreadable target',
      )}`,
    };
  if (found.isDirectory()) return { path, what: 'a directory (a git directory statecraft did not make, with its own configuration and hooks)' };
  if (!found.isFile()) return { path, what: 'not a regular file' };
  const text = await readPointer(path);
  if (text === expected) return undefined;
  const shown = text.length > 200 ? `${text.slice(0, 200)}…` : text;
  return { path, what: `a file holding ${JSON.stringify(shown)}, not ${JSON.stringify(expected)}` };
}

/** At most POINTER_BYTES of a regular file, opened without following a link nor waiting on a FIFO swapped in. */
async function readPointer(path: string): Promise<string> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const buffer = Buffer.alloc(POINTER_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, POINTER_BYTES, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}
