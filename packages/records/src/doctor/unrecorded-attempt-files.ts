import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { runGit } from '../git/git.js';
import { attemptWorkspaceLocation, workspaceLocation } from '../workspace-location.js';
import type { ChainEntry } from '../chain/open-chain.js';
import { filesWrittenAfterIntent, missingAttemptRecords } from './attempt-files-after-intent.js';
import type { Finding } from './examine-product-home.js';

/**
 * An attempt's directory that no intent names: its request and prompt were written, then its
 * supervisor was killed before the intent was (a `kill -9`, a crash). Nothing reads such files,
 * and nothing else would ever mention them, or the branch and worktree that attempt may have left
 * in the target repository: those are looked for where `run` makes them,
 * and named with the commands that remove them. The live attempt's own files are not yet named,
 * nor are those of a run that started while doctor read (changed after it began).
 */
export async function findUnrecordedAttemptFiles(
  directory: string,
  target: string,
  entries: readonly ChainEntry[],
  live: 'none' | { runId: string; attempt: number; attempts?: number },
  startedAtMs: number,
): Promise<Finding[]> {
  const named = new Set(entries.flatMap((entry) => (entry.record.kind === 'intent' ? [`${entry.record.runId}/${entry.record.attempt}`] : [])));
  const recordedRuns = new Set(entries.flatMap((entry) => ('runId' in entry.record ? [entry.record.runId] : [])));
  if (live !== 'none') for (let attempt = live.attempt; attempt <= (live.attempts ?? live.attempt); attempt += 1) named.add(`${live.runId}/${attempt}`);
  const attempts = join(directory, 'attempts');
  const findings: Finding[] = [];
  for (const runId of (await readdir(attempts).catch(() => [] as string[])).sort()) {
    for (const attempt of (await readdir(join(attempts, runId)).catch(() => [] as string[])).sort()) {
      if (named.has(`${runId}/${attempt}`)) continue;
      const path = join(attempts, runId, attempt);
      // A run that took the lock after doctor read it, and wrote its files before its intent: not left, starting.
      const changed = await stat(path).then(
        (info) => info.mtimeMs,
        () => Number.POSITIVE_INFINITY,
      );
      if (changed >= startedAtMs) continue;
      const written = await filesWrittenAfterIntent(path);
      if (written.length > 0) {
        findings.push(missingAttemptRecords(path, { runId, attempt }, written, target));
        continue;
      }
      findings.push({
        kind: 'unrecorded-attempt-files',
        path,
        message: `${path}: files of run ${runId} attempt ${attempt} that no record names (its supervisor stopped before its intent was written); ${await leftInRepository(target, runId, Number(attempt), recordedRuns)}; doctor removes nothing`,
      });
    }
  }
  return findings;
}

/**
 * What an unrecorded attempt left in the target repository, where `run` makes it, with the commands
 * that remove it; or that nothing is left. Attempt n ≥ 2 of a run that started several has its own
 * worktree and branch (`<run>-<n>`), which no other attempt uses; a retry works in the run's own.
 * A run with recorded attempts keeps its own worktree and branch: they hold those attempts'
 * candidates, and are named as such, never for removal.
 */
async function leftInRepository(target: string, runId: string, attempt: number, recordedRuns: ReadonlySet<string>): Promise<string> {
  if (target === 'not-recorded') return `its branch statecraft/${runId} and workspace may be left in the target repository, which this home does not name`;
  if (attempt >= 2) {
    const own = await leftAt(target, attemptWorkspaceLocation(target, runId, attempt));
    if (own !== 'nothing') return own.left;
  }
  const { path, branch } = workspaceLocation(target, runId);
  if (recordedRuns.has(runId)) return `its worktree ${path} and branch ${branch} are those of run ${runId}'s recorded attempts too, and stay`;
  const left = await leftAt(target, { path, branch });
  return left === 'nothing' ? `nothing of it is left in ${target} (no worktree at ${path}, no branch ${branch})` : left.left;
}

/** The worktree and branch at one place, if either is left, with the commands that remove them. */
async function leftAt(target: string, { path, branch }: { path: string; branch: string }): Promise<{ left: string } | 'nothing'> {
  const [worktree, branchFound] = await Promise.all([
    stat(path).then(
      (info): boolean | 'unknown' => info.isDirectory(),
      (error: NodeJS.ErrnoException): boolean | 'unknown' => (error.code === 'ENOENT' ? false : 'unknown'),
    ),
    // rev-parse --verify --quiet exits 1, saying nothing, for a ref that does not exist; anything else is not an answer.
    runGit(target, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]).then((answer): boolean | 'unknown' =>
      answer.ok ? true : answer.exitCode === 1 ? false : 'unknown',
    ),
  ]);
  if (worktree === 'unknown' || branchFound === 'unknown') {
    return { left: `whether its worktree ${path} or branch ${branch} is left in ${target} could not be read` };
  }
  if (!worktree && !branchFound) return 'nothing';
  const left = [...(worktree ? [`the worktree ${path}`] : []), ...(branchFound ? [`the branch ${branch}`] : [])];
  const git = `git -C ${shellWord(target)}`;
  const removal = [
    ...(worktree ? [`${git} worktree remove --force ${shellWord(path)}`] : []),
    ...(branchFound ? [`${git} branch -D ${shellWord(branch)}`] : []),
  ];
  return { left: `left in ${target}: ${left.join(' and ')} (remove with: ${removal.join('; ')})` };
}

/** A word a POSIX shell reads back as itself: as it is when it is plain, else in single quotes. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
