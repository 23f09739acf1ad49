import { appendRecord } from '../chain/append-record.js';
import { chainPaths, targetDirectoryIn } from '../chain/chain-paths.js';
import { formatTargetName } from '../chain/target-name.js';
import { writeFileDurably } from '../durable-write.js';
import { failedPath, writingFile } from '../failed-file.js';
import { runGit } from '../git/git.js';
import { resolveTarget } from '../git/resolve-target.js';
import { openChainToAppend, underTargetLock } from '../lock/under-target-lock.js';
import { foldAttempts } from '../read/fold-attempts.js';
import type { AttemptAccount } from '../read/attempt-account.js';
import { rankAttempts } from '../selection/rank-attempts.js';
import { RANKING_RULE_VERSION, rankKeyOf, type RankKey } from '../selection/rank-key.js';
import type { SelectedBundle, SelectionRecord } from '../selection/selection-record.js';
import type { TrustedKey } from '../signing/trusted-keys.js';
import { readGroupBundle, type GroupBundle } from './read-group-bundle.js';

/** One collected attempt, as ranked: where it was read, and its account folded from the bundle's records. */
interface CollectedAttempt {
  path: string;
  runId: string;
  attempt: number;
  key: RankKey;
  bundle: SelectedBundle;
  account: AttemptAccount;
}

export type Collection =
  | {
      kind: 'collected';
      target: string;
      group: string;
      baseCommit: string;
      ranked: CollectedAttempt[];
      refused: { path: string; why: string }[];
      record: { line: number; sha256: string };
    }
  | { kind: 'refused'; message: string; refused: { path: string; why: string }[] }
  | { kind: 'failed'; path: string; message: string };

/**
 * `statecraft collect` (decision 0322): each bundle verified offline with the trusted keys; any
 * that does not verify, belongs to another group, starts from another base (or one the target
 * repository does not hold), or repeats an index already given, refused by name; the rest ranked
 * by the rule and the selection appended to the target's chain in this home, under its lock.
 */
export async function collectGroup(input: {
  home: string;
  target: string;
  bundles: readonly string[];
  trusted: readonly TrustedKey[];
  group?: string;
}): Promise<Collection> {
  const resolution = await resolveTarget(input.target);
  if (resolution.kind === 'refused') return { kind: 'refused', message: resolution.message, refused: [] };
  const target = resolution.target;
  const refused: { path: string; why: string }[] = [];
  const kept: GroupBundle[] = [];
  const known = new Map<string, boolean>();
  for (const path of input.bundles) {
    const read = await readGroupBundle(path, input.trusted);
    if ('why' in read) {
      refused.push({ path, why: read.why });
      continue;
    }
    const why = await refusalOf(read, kept, input.group, target.path, known);
    if (why === undefined) kept.push(read);
    else refused.push({ path, why });
  }
  const first = kept[0];
  if (first === undefined) return { kind: 'refused', message: 'no bundle could be collected; nothing recorded', refused };
  const attempts = kept.map((bundle) => collectedOf(bundle));
  const order = rankAttempts(attempts.map((attempt) => attempt.account));
  const ranked = order.map((entry) => attempts.find((attempt) => attempt.runId === entry.runId && attempt.attempt === entry.attempt) as CollectedAttempt);
  const chosen = ranked[0] as CollectedAttempt;
  const group = first.intent.group.id;
  const selection: Omit<SelectionRecord, 'prev' | 'seq' | 'format'> = {
    at: new Date().toISOString(),
    kind: 'selection',
    runId: group,
    rule: { version: RANKING_RULE_VERSION },
    ranked: ranked.map((attempt) => ({ runId: attempt.runId, attempt: attempt.attempt, key: attempt.key, bundle: attempt.bundle })),
    chosen: { runId: chosen.runId, attempt: chosen.attempt },
  };
  const paths = chainPaths(targetDirectoryIn(input.home, target.key));
  const appended = await underTargetLock({
    paths,
    holder: { runId: group, attempt: 1, holding: 'collect' },
    nothing: 'nothing recorded',
    open: openChainToAppend,
    failed: (error) => ({
      kind: 'failed' as const,
      path: failedPath(error, paths.chain),
      message: `cannot record the selection (${(error as Error).message})`,
    }),
    work: async (opening) => {
      if (opening.nextSeq === 0) await writingFile(paths.target, () => writeFileDurably(paths.target, formatTargetName(target)));
      const done = await writingFile(paths.chain, () =>
        appendRecord(paths.chain, { head: opening.head, nextSeq: opening.nextSeq, length: opening.length, torn: opening.torn }, selection),
      );
      return { kind: 'appended' as const, line: done.record.seq + 1, sha256: done.digest };
    },
  });
  if (appended.kind === 'failed') return appended;
  if (appended.kind === 'refused') return { kind: 'refused', message: appended.message, refused };
  return {
    kind: 'collected',
    target: target.path,
    group,
    baseCommit: first.intent.baseCommit,
    ranked,
    refused,
    record: { line: appended.line, sha256: appended.sha256 },
  };
}

/** Why a verified bundle is not one of the group being collected, or undefined when it is. */
async function refusalOf(
  bundle: GroupBundle,
  kept: readonly GroupBundle[],
  wanted: string | undefined,
  target: string,
  known: Map<string, boolean>,
): Promise<string | undefined> {
  const { group, baseCommit } = bundle.intent;
  const reference = kept[0];
  const groupId = wanted ?? reference?.intent.group.id;
  if (groupId !== undefined && group.id !== groupId) return `belongs to group ${group.id}, not ${groupId}`;
  if (reference !== undefined) {
    if (baseCommit !== reference.intent.baseCommit) return `starts from base ${baseCommit}, not ${reference.intent.baseCommit} (the base of ${reference.path})`;
    if (group.of !== reference.intent.group.of) return `is one of ${group.of} attempts, not ${reference.intent.group.of} (as ${reference.path} says)`;
  }
  const same = kept.find((other) => other.intent.group.index === group.index);
  if (same !== undefined) return `is attempt ${group.index} of the group, which ${same.path} already is`;
  if (!known.has(baseCommit)) known.set(baseCommit, (await runGit(target, ['cat-file', '-e', `${baseCommit}^{commit}`])).ok);
  if (known.get(baseCommit) !== true) return `starts from base ${baseCommit}, which is not a commit of ${target}: another repository`;
  return undefined;
}

function collectedOf(bundle: GroupBundle): CollectedAttempt {
  const [account] = foldAttempts('chain/records.jsonl', '', bundle.entries, 'none');
  if (account === undefined) throw new Error(`${bundle.path}: its attempt could not be folded`);
  return {
    path: bundle.path,
    runId: account.runId,
    attempt: account.attempt,
    key: rankKeyOf(account),
    bundle: { digest: bundle.digest, group: bundle.intent.group.id, index: bundle.intent.group.index },
    account,
  };
}
