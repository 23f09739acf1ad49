import type { AttemptStart } from '@statecraft/adapter';
import { IGNORED_FILES_NOTE, type Candidate } from '@statecraft/records';
import { MAX_RECORD_BYTES } from '@statecraft/records';
import type { EndOfAttemptGit } from './end-of-attempt-git.js';
import type { WorkspaceHeadReading } from './prepare-workspace.js';
import type { EarlierCandidate } from './attempt-start.js';
import { whoMadeCandidate } from './who-made-candidate.js';
import { workspaceGitFromOutside, type WorkspaceGitAnswer } from './workspace-git-from-outside.js';

/** The fixed identity of a commit statecraft makes of the work tree (R13.2): never the operator's. */
const STATECRAFT_GIT_IDENTITY = { name: 'statecraft', email: 'statecraft@statecraft.invalid' } as const;

/**
 * The most bytes the changed paths may take in the outcome record: half of a record's bound
 * (chain/record-bound.ts), so that with everything else an outcome carries it stays under it.
 * Past it the candidate is not identified (R13.2): an agent that changes a million paths must
 * not make its own outcome unwritable.
 */
const CHANGED_PATHS_BOUND_BYTES = MAX_RECORD_BYTES / 2;

/** How many ignored paths are named in the record; the count is always whole. */
const IGNORED_PATHS_NAMED = 20;

export type CandidateIdentification = { kind: 'identified'; candidate: Candidate } | { kind: 'not-identified'; message: string };

/** The reads a candidate's identification starts with: the status, and the head's ids beside it. */
export interface FirstCandidateReads {
  status: Promise<WorkspaceGitAnswer>;
  /** Not asked when the base's tree is known: a tree left clean on its base needs no git for them. */
  ids: Promise<WorkspaceGitAnswer> | undefined;
}

/**
 * Starts the first reads of a candidate's identification (R13.2) — they only read — so a caller
 * that knows the attempt's processes are gone can ask them while it still waits for something
 * else (its evidence files' fsync), and hand them to `identifyCandidate`. Never rejects.
 */
export function startCandidateReads(workspace: string, gitDirectory: string, baseTree: string | undefined, end?: EndOfAttemptGit): FirstCandidateReads {
  const git = workspaceGitFromOutside(workspace, gitDirectory, end);
  // Porcelain v2 with --branch: the same entries as v1, and the head's object name in a header.
  const status = git(['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all', '--ignored=matching', '--ignore-submodules=dirty']);
  // The head's ids, asked beside the status: a tree the agent left clean (the usual end) is
  // settled as it is, so they stand and the attempt's end waits for one git process, not two in a
  // row. Nothing moves HEAD meanwhile (the attempt's processes are gone; this reads objects and
  // refs, never the index the status may refresh). A dirty tree discards them and asks again once
  // statecraft's commit is made. With the base's tree known (planning read it with the base) they
  // are not asked: the usual end — clean, on the base — then has its ids already, and only a head
  // the agent moved asks for them, after the status.
  return { status, ids: baseTree === undefined ? git(HEAD_IDS) : undefined };
}

const HEAD_IDS = ['rev-parse', 'HEAD', 'HEAD^{tree}'] as const;

/** An untracked entry that is a directory: under --untracked-files=all, only a repository of its own is listed so. */
const isNestedRepository = (entry: string): boolean => entry.startsWith('? ') && entry.endsWith('/');

/**
 * Identifies the candidate of a completed attempt (R13.2), before its outcome is appended: the
 * workspace HEAD if the tree is clean, else a commit of the work tree (`git add -A`) with a fixed
 * statecraft identity and a message naming the run and attempt, on top of the agent's own commits.
 * Git runs with a constructed environment (no GIT_*, no system or global configuration) and no
 * hooks, so neither the operator's configuration nor the repository's hooks take part; and through
 * the workspace's registered git directory (`gitDirectory`), never the `.git` file the agent could
 * rewrite, with nothing in the workspace able to name a command git would run (R12). Who made
 * it, and how many paths the attempt changed, are told from the workspace as the attempt found it
 * (its intent's `start`, who-made-candidate.ts), never from a commit's author.
 */
export async function identifyCandidate(
  input: {
    workspace: string;
    gitDirectory: string;
    baseCommit: string;
    baseTree?: string | undefined;
    runId: string;
    attempt: number;
    /** The workspace as the attempt found it (its intent's `start`): who made the candidate and what the attempt changed are told from it. */
    start: AttemptStart;
    /** The candidates the run's earlier attempts recorded. */
    earlier: readonly EarlierCandidate[];
    end?: EndOfAttemptGit;
  },
  /**
   * Called once the work tree is settled (its commit, if any, made): only reads follow, so the
   * caller may read the workspace beside them. A tree found clean is settled as the status read
   * it, and its head is handed over: nothing has changed since, so no second status is needed.
   */
  onSettled: (clean: WorkspaceHeadReading | undefined) => void = () => undefined,
  /** The first reads, when the caller started them already (startCandidateReads) for this workspace and git directory. */
  started: FirstCandidateReads = startCandidateReads(input.workspace, input.gitDirectory, input.baseTree, input.end),
): Promise<CandidateIdentification> {
  const git = workspaceGitFromOutside(input.workspace, input.gitDirectory, input.end);
  const readIds = (): Promise<WorkspaceGitAnswer> => git(HEAD_IDS);
  // The paths changed from the base: none when the head is the base itself, which asks no git
  // (a clean tree on the base, the usual end of an attempt that changed nothing).
  const readChanged = (head: string | undefined): Promise<WorkspaceGitAnswer> =>
    head === input.baseCommit ? Promise.resolve({ ok: true, stdout: '' }) : git(['diff', '--numstat', '-z', '--no-renames', input.baseCommit, 'HEAD']);
  const statusRead = started.status;
  const idsBeside = started.ids;
  const status = await statusRead;
  if (!status.ok) {
    await idsBeside;
    return { kind: 'not-identified', message: status.message };
  }
  const entries = status.stdout.split('\0').filter((entry) => entry !== '');
  // A repository the agent made in its workspace is listed whole, `? path/`, under
  // --untracked-files=all. `git add -A` would commit it as a gitlink (its commit id, which no
  // one else has), and the operator's own git in the workspace would then enter it and run what
  // its configuration names, as the operator: it is left out, untracked, as ignored files are.
  const nested = entries.filter(isNestedRepository).map((entry) => entry.slice(2, -1));
  const ignored = [...entries.filter((entry) => entry.startsWith('! ')).map((entry) => entry.slice(2)), ...nested.map((path) => `${path}/`)];
  // A rename's entry is followed by its source path, which has no status of its own: still dirty.
  const dirty = entries.some((entry) => !entry.startsWith('# ') && !entry.startsWith('! ') && !isNestedRepository(entry));
  if (dirty) {
    // Read before the commit: they name the agent's head, not the candidate. Settled, then dropped.
    await idsBeside;
    const added = await git(['add', '-A']);
    if (!added.ok) return { kind: 'not-identified', message: added.message };
    if (nested.length > 0) {
      const unstaged = await git(['rm', '--cached', '-r', '-f', '-q', '--ignore-unmatch', '--', ...nested]);
      if (!unstaged.ok) return { kind: 'not-identified', message: unstaged.message };
    }
    const committed = await git([
      '-c',
      `user.name=${STATECRAFT_GIT_IDENTITY.name}`,
      '-c',
      `user.email=${STATECRAFT_GIT_IDENTITY.email}`,
      '-c',
      'commit.gpgsign=false',
      'commit',
      '--quiet',
      '--no-verify',
      '--allow-empty-message',
      '-m',
      `statecraft: candidate of run ${input.runId} attempt ${input.attempt}`,
      '-m',
      `The work tree the agent left at the end of the attempt, committed by statecraft; ${IGNORED_FILES_NOTE}.`,
    ]);
    if (!committed.ok) return { kind: 'not-identified', message: committed.message };
  }
  const statusHead = headOfStatus(entries);
  onSettled(dirty ? undefined : { head: statusHead, dirty: false });
  // A clean tree's head is the one its status names: on the base, whose tree is known, no git is asked.
  const cleanIds = (head: string): Promise<WorkspaceGitAnswer> =>
    head === input.baseCommit && input.baseTree !== undefined
      ? Promise.resolve({ ok: true, stdout: `${head}\n${input.baseTree}\n` })
      : (idsBeside ?? readIds());
  const readSinceStart = changedSinceStartReader(input.start, input.baseCommit, git);
  // Statecraft's own commit is never the base, nor the start.
  let [ids, changed, sinceStart] = await Promise.all(
    dirty ? [readIds(), readChanged(undefined), readSinceStart(undefined)] : [cleanIds(statusHead), readChanged(statusHead), readSinceStart(statusHead)],
  );
  // The ids beside the status stand only for the head the status saw; were it ever another, ask again.
  if (!dirty && ids.ok && ids.stdout.split('\n')[0] !== statusHead)
    [ids, changed, sinceStart] = await Promise.all([readIds(), readChanged(undefined), readSinceStart(undefined)]);
  if (!ids.ok) return { kind: 'not-identified', message: ids.message };
  const [commit, tree] = ids.stdout.trim().split('\n');
  if (commit === undefined || tree === undefined) return { kind: 'not-identified', message: `git rev-parse HEAD in ${input.workspace} gave no commit` };
  if (!changed.ok) return { kind: 'not-identified', message: changed.message };
  if (sinceStart !== 'as-from-the-base' && !sinceStart.ok) return { kind: 'not-identified', message: sinceStart.message };
  const { paths: changedPaths, lines: changedLines } = readNumstat(changed.stdout);
  // The agent chooses how many paths it changes; the outcome record that carries them is bounded.
  const recordedBytes = Buffer.byteLength(JSON.stringify(changedPaths));
  if (recordedBytes > CHANGED_PATHS_BOUND_BYTES) {
    return {
      kind: 'not-identified',
      message: `the candidate ${commit} changes ${changedPaths.length} paths, whose names take ${recordedBytes} bytes in a record, more than a record keeps of a candidate (${CHANGED_PATHS_BOUND_BYTES}); nothing can be judged`,
    };
  }
  return {
    kind: 'identified',
    candidate: {
      commit,
      tree,
      ...whoMadeCandidate({ dirty, commit, baseCommit: input.baseCommit, start: input.start, earlier: input.earlier }),
      start: input.start,
      changedPaths,
      changedLines,
      changedSinceStart: sinceStart === 'as-from-the-base' ? changedPaths.length : countPaths(sinceStart.stdout),
      ignored: { note: IGNORED_FILES_NOTE, count: ignored.length, paths: ignored.slice(0, IGNORED_PATHS_NAMED) },
    },
  };
}

/**
 * How the paths changed since the attempt's start are read, once the work tree is settled, given
 * the head a clean status named (`undefined` once statecraft committed): none changed for a head
 * still at a clean start; counted with those from the base for a start that is the base itself
 * (a new run: no git); else a diff from the start's tree, uncommitted changes it held included.
 */
function changedSinceStartReader(
  start: AttemptStart,
  baseCommit: string,
  git: (args: readonly string[]) => Promise<WorkspaceGitAnswer>,
): (head: string | undefined) => Promise<WorkspaceGitAnswer | 'as-from-the-base'> {
  return (head) => {
    if (start.commit === baseCommit && !start.uncommitted) return Promise.resolve('as-from-the-base');
    if (head === start.commit && !start.uncommitted) return Promise.resolve({ ok: true, stdout: '' });
    return git(['diff', '--name-only', '-z', '--no-renames', start.tree, 'HEAD']);
  };
}

/**
 * The paths and lines of `git diff --numstat -z --no-renames`: one `added<TAB>removed<TAB>path`
 * entry per path, each ended by NUL (a path may hold tabs: only the first two split); a binary
 * file counts `-` lines, none here.
 */
function readNumstat(nulSeparated: string): { paths: string[]; lines: { added: number; removed: number } } {
  const paths: string[] = [];
  const lines = { added: 0, removed: 0 };
  for (const entry of nulSeparated.split('\0')) {
    if (entry === '') continue;
    const first = entry.indexOf('\t');
    const second = entry.indexOf('\t', first + 1);
    paths.push(entry.slice(second + 1));
    lines.added += Number.parseInt(entry.slice(0, first), 10) || 0;
    lines.removed += Number.parseInt(entry.slice(first + 1, second), 10) || 0;
  }
  return { paths, lines };
}

function countPaths(nulSeparated: string): number {
  return nulSeparated.split('\0').filter((path) => path !== '').length;
}

/** The head's object name from a porcelain v2 `--branch` header; `not-recorded` for an unborn branch. */
function headOfStatus(entries: readonly string[]): string {
  const oid = entries.find((entry) => entry.startsWith('# branch.oid '))?.slice('# branch.oid '.length);
  return oid !== undefined && /^[0-9a-f]{40,64}$/.test(oid) ? oid : 'not-recorded';
}
