import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { lstat, readFile, realpath, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { inWorktreeTurn, runGit, untrustedWorktreeGitOptions } from '@statecraft/records';

/** Where fresh worktrees of candidates are made: the target's state directory, kept out of git (R8.6). */
export const CHECKS_DIRECTORY = join('.statecraft', 'state', 'checks');

/** The owner file beside a check worktree: the supervisor that made it, in the lock's shape. */
export function ownerFileOf(worktree: string): string {
  return `${worktree}.owner.json`;
}

/**
 * A check worktree as made, before any check ran: `gitDir`, its own git directory in the
 * repository (`.git/worktrees/<name>`), and `pointer`, the `.git` file's text naming it. The `.git`
 * file is the checks' to rewrite; the reading after each check compares it with `pointer`.
 */
export interface MadeWorktree {
  path: string;
  gitDir: string;
  pointer: string;
}

export type CandidateWorktree = ({ kind: 'made' } & MadeWorktree) | { kind: 'failed'; message: string };

/**
 * A fresh detached worktree of the candidate commit (R13.3): not the agent's workspace, so nothing
 * the agent left outside the commit is judged. Git runs without hooks (runGit), so no post-checkout
 * hook of the repository runs before the checks do. Its owner (this supervisor) is written beside
 * it first, so a later judge can tell a worktree a killed supervisor left from a live one's.
 *
 * One `git worktree add`, which checks the candidate out itself (its own child `git reset --hard
 * --no-recurse-submodules`: submodules are not entered). The directory is made empty first (git
 * adds into it as into none), and `onAdded` is told it at once with `added`, settling true once
 * git has added the worktree and checked it out (false: it could not): what needs only the
 * directory (the boundary's sandbox) is set up while git works, and what writes there (its probe)
 * waits for `added`.
 */
export async function makeCandidateWorktree(
  target: string,
  runId: string,
  attempt: number,
  commit: string,
  hooks: { onAdded?: (path: string, added: Promise<boolean>) => void } = {},
): Promise<CandidateWorktree> {
  const path = join(target, CHECKS_DIRECTORY, `${runId}-${attempt}-${randomUUID().slice(0, 8)}`);
  // Synchronous up to `git worktree add`: the worktree, its checkout and then the checks are the
  // judge's longest path, so its git is started before the suite's reading starts its own.
  mkdirSync(join(target, CHECKS_DIRECTORY), { recursive: true });
  const owner = { pid: process.pid, host: hostname(), runId, attempt, since: new Date().toISOString() };
  // Not fsync'd: after a crash its owner is dead anyway, and a missing owner file reads as dead.
  writeFileSync(ownerFileOf(path), `${JSON.stringify(owner)}\n`, { mode: 0o600 });
  mkdirSync(path, { mode: 0o755 });
  // Git first (runGit spawns before it returns), then what is set up beside it.
  const adding = inWorktreeTurn(() => runGit(target, ['worktree', 'add', '--detach', '--quiet', path, commit]));
  let settleAdded: (added: boolean) => void = () => undefined;
  hooks.onAdded?.(
    path,
    new Promise<boolean>((resolve) => {
      settleAdded = resolve;
    }),
  );
  const added = await adding;
  if (!added.ok) {
    settleAdded(false);
    // The directory is this judge's own, made just above under its checks directory.
    await Promise.all([rm(path, { recursive: true, force: true }), rm(ownerFileOf(path), { force: true })]);
    return { kind: 'failed', message: `git worktree add --detach ${path} ${commit} (the checkout of ${commit} included): ${added.stderr}` };
  }
  const pointer = await readGitDirPointer(path);
  settleAdded(!('failed' in pointer));
  if ('failed' in pointer) {
    await removeCandidateWorktree(target, path);
    return { kind: 'failed', message: pointer.failed };
  }
  return { kind: 'made', path, ...pointer };
}

/** The git directory a fresh worktree's `.git` file names (`gitdir: <path>`), resolved against the worktree, and the file's text. */
async function readGitDirPointer(path: string): Promise<{ gitDir: string; pointer: string } | { failed: string }> {
  const text = await readFile(join(path, '.git'), 'utf8').catch((error: unknown) => ({ failed: (error as Error).message }));
  if (typeof text !== 'string') return { failed: `cannot read ${join(path, '.git')} of the fresh worktree (${text.failed})` };
  const match = /^gitdir: (.+)$/m.exec(text);
  if (match?.[1] === undefined) return { failed: `${join(path, '.git')} of the fresh worktree names no "gitdir:"` };
  return { gitDir: resolve(path, match[1].trim()), pointer: text };
}

/**
 * After each check and after the suite (R13.3): HEAD must still be the candidate and the tree
 * clean. Untracked files count as dirty; files git ignores (build output) do not, and are named
 * apart (`ignoredPaths`) when asked for, so they can be removed before the next check. Dirty paths
 * are named. One git process answers all (`--branch` heads the porcelain v2 listing with HEAD's
 * commit), read once the check's process tree is gone, so nothing moves between them.
 *
 * The checks could write anything in the worktree, its `.git` file included, and this git runs
 * outside the boundary (R12): so it is told the git directory read before the checks ran, never
 * the one the worktree now names; `core.fsmonitor` is off (a command git would run); and a
 * gitlink a check populated is compared by its HEAD only, as git does without entering it, since
 * a repository a check made holds configuration git would obey. Git never lists `.git` itself:
 * a `.git` that is no longer the file made with the worktree is named dirty here, since a later
 * check's git would follow it to a history the check chose.
 */
export async function readWorktreeAfterSuite(
  worktree: MadeWorktree,
  options: { ignored?: boolean } = {},
): Promise<{ head: string; dirtyPaths: string[]; ignoredPaths?: string[] } | { failed: string }> {
  const { path, gitDir } = worktree;
  const [status, pointerKept] = await Promise.all([
    runGit(path, [
      ...untrustedWorktreeGitOptions(gitDir, path),
      // Never writes the index (a refresh would): its bytes are compared between checks (worktree-shape.ts).
      '--no-optional-locks',
      'status',
      '--porcelain=v2',
      '--branch',
      '-z',
      '--untracked-files=all',
      '--ignore-submodules=dirty',
      ...(options.ignored === true ? ['--ignored=matching'] : []),
    ]),
    pointerUnchanged(worktree),
  ]);
  if (!status.ok) return { failed: `git status in ${path}: ${status.stderr}` };
  let head: string | undefined;
  const dirtyPaths: string[] = pointerKept ? [] : ['.git'];
  const ignoredPaths: string[] = [];
  const entries = status.stdout.split('\0');
  for (let index = 0; index < entries.length; index += 1) {
    const entry = entries[index] ?? '';
    if (entry.startsWith('# branch.oid ')) head = entry.slice('# branch.oid '.length);
    if (entry.startsWith('! ')) ignoredPaths.push(entry.slice(2));
    const dirty = dirtyPathOf(entry);
    if (dirty !== undefined) dirtyPaths.push(dirty);
    // A rename or copy is followed by its source path.
    if (entry.startsWith('2 ')) index += 1;
  }
  if (head === undefined || !/^[0-9a-f]{40,64}$/.test(head)) return { failed: `git status in ${path} named no HEAD commit (${head ?? 'no branch.oid line'})` };
  return { head, dirtyPaths, ...(options.ignored === true ? { ignoredPaths } : {}) };
}

/** Whether the worktree's `.git` is still the regular file, with the text, it was made with. */
async function pointerUnchanged(worktree: MadeWorktree): Promise<boolean> {
  const file = join(worktree.path, '.git');
  const kind = await lstat(file).catch(() => undefined);
  if (kind?.isFile() !== true) return false;
  return (await readFile(file, 'utf8').catch(() => undefined)) === worktree.pointer;
}

/**
 * Removes what a check left that git ignores, before the next check starts (R13.3): every check
 * sees exactly the candidate, never an earlier check's output that the candidate's `.gitignore`
 * hides from the reading (a repository planted there, a file a later check reads). Paths as
 * `git status --ignored=matching` names them, relative to the worktree; fs.rm follows no link.
 * Answers the paths that could not be removed.
 */
export async function removeIgnoredPaths(worktree: string, ignoredPaths: readonly string[]): Promise<string[]> {
  const failed: string[] = [];
  const root = await realpath(worktree).catch(() => undefined);
  for (const ignored of ignoredPaths) {
    const path = join(worktree, ignored);
    // Its parent must be where it is named: never removed through a link a leftover process put in its place.
    const parent = await realpath(dirname(path)).catch(() => undefined);
    const inPlace = root !== undefined && parent === dirname(join(root, ignored));
    const gone =
      inPlace &&
      (await rm(path, { recursive: true, force: true }).then(
        () => true,
        () => false,
      ));
    if (!gone) failed.push(ignored);
  }
  return failed;
}

/** How many space-separated fields come before the path in a porcelain v2 entry, by its first (`git status` docs). */
const FIELDS_BEFORE_PATH: Record<string, number> = { '1': 8, '2': 9, u: 10, '?': 1 };

/** The path of one porcelain v2 entry (it may hold spaces: it is the rest of the entry), or none for a header line. */
function dirtyPathOf(entry: string): string | undefined {
  const fields = entry.split(' ');
  const before = FIELDS_BEFORE_PATH[fields[0] ?? ''];
  return before === undefined || fields.length <= before ? undefined : fields.slice(before).join(' ');
}

/**
 * Removes a worktree this judge made, as `git worktree remove --force --force` does, without a git
 * process: its directory, then its own git directory in the repository (`gitDir`, read from the
 * `.git` file git wrote before any check ran, never the one the worktree now holds), then its
 * owner file. Only when that git directory is still registered as this worktree's
 * (`worktrees/<id>/gitdir` names its `.git`); else, or when a removal fails, git removes it.
 */
export async function removeMadeWorktree(target: string, worktree: MadeWorktree): Promise<'removed' | { notRemoved: string }> {
  const registered = await readFile(join(worktree.gitDir, 'gitdir'), 'utf8').catch(() => undefined);
  const own = basename(dirname(worktree.gitDir)) === 'worktrees' && registered?.trimEnd() === join(worktree.path, '.git');
  // fs.rm does not follow symbolic links: nothing outside the worktree is reached through one a check left.
  const gone =
    own &&
    (await rm(worktree.path, { recursive: true, force: true }).then(
      () => inWorktreeTurn(() => rm(worktree.gitDir, { recursive: true, force: true })).then(() => true),
      () => false,
    ));
  if (gone !== true) return removeCandidateWorktree(target, worktree.path);
  await rm(ownerFileOf(worktree.path), { force: true }).catch(() => undefined);
  return 'removed';
}

/**
 * Removes the worktree (and anything the checks left in it) and its owner file; a failure is said,
 * never fatal. Git refuses a worktree whose `.git` file a check rewrote ("does not point back"):
 * the directory, made by this judge under its own checks directory, is then removed outright and
 * git forgets the registration (`worktree prune`), as the leftover sweep does.
 */
export async function removeCandidateWorktree(target: string, path: string): Promise<'removed' | { notRemoved: string }> {
  const removed = await inWorktreeTurn(() => runGit(target, ['worktree', 'remove', '--force', '--force', path]));
  if (!removed.ok) {
    // fs.rm does not follow symbolic links: nothing outside the worktree is reached through one a check left.
    const gone = await rm(path, { recursive: true, force: true }).then(
      () => undefined,
      (error: unknown) => (error as Error).message,
    );
    if (gone !== undefined) return { notRemoved: `git worktree remove ${path}: ${removed.stderr}; rm: ${gone}` };
    await inWorktreeTurn(() => runGit(target, ['worktree', 'prune']));
  }
  await rm(ownerFileOf(path), { force: true }).catch(() => undefined);
  return 'removed';
}
