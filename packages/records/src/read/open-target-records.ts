import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

import { chainPaths, targetDirectoryIn } from '../chain/chain-paths.js';
import { targetKey } from '../product-home.js';
import { isLive, readLockHolder } from '../lock/lock-holder.js';
import { openChain, type ChainEntry, type ChainOpening, type LinkedRecord, type TornTail } from '../chain/open-chain.js';
import { openChainSummaries, type ChainSummary } from '../chain/chain-summary.js';
import { resolveTarget } from '../git/resolve-target.js';
import { liveHolderOf, type LiveHolder } from './fold-attempts.js';

export type TargetRecords<R extends LinkedRecord = ChainEntry['record']> =
  | {
      kind: 'opened';
      target: string;
      targetDirectory: string;
      chain: string;
      entries: ChainEntry<R>[];
      torn: 'none' | TornTail;
      live: LiveHolder;
    }
  | { kind: 'refused'; path: string; lineNumber: number; message: string }
  /** Neither a repository nor a path with records: a typo, not an empty history. */
  | { kind: 'unknown-target'; path: string; message: string }
  | { kind: 'failed'; path: string; message: string };

/** A target's records as one opening read them: what the readers of one attempt share. */
export type OpenedTargetRecords = Extract<TargetRecords, { kind: 'opened' }>;

/**
 * Opens one target's records read-only. The target is named the way `run` names it (its git top
 * level); a target that is no longer a repository is looked up by its absolute path, so records
 * outlive the checkout. A path that is neither a repository nor holds records is unknown; a
 * repository's missing chain is an empty one; a broken one is refused, naming the record.
 */
export function openTargetRecords(home: string, given: string): Promise<TargetRecords> {
  return openTargetWith(home, given, openChain);
}

/**
 * The same, reading each record as a summary: for `run list` over long chains. With `onEntry`,
 * each verified entry is handed over as it is read and none is kept (the entries are empty).
 */
export function openTargetSummaries(home: string, given: string, onEntry?: (entry: ChainEntry<ChainSummary>) => void): Promise<TargetRecords<ChainSummary>> {
  return openTargetWith(home, given, (path) => openChainSummaries(path, onEntry));
}

async function openTargetWith<R extends LinkedRecord>(
  home: string,
  given: string,
  open: (path: string) => Promise<ChainOpening<R>>,
): Promise<TargetRecords<R>> {
  const resolution = await resolveTarget(given);
  const target = resolution.kind === 'resolved' ? resolution.target.path : resolve(given);
  const key = resolution.kind === 'resolved' ? resolution.target.key : targetKey(target);
  const paths = chainPaths(targetDirectoryIn(home, key));
  if (resolution.kind === 'refused' && !existsSync(paths.chain)) {
    return { kind: 'unknown-target', path: resolution.path, message: `${resolution.message}, and statecraft holds no records for it` };
  }
  const opening = await open(paths.chain);
  if (opening.kind === 'broken') return { kind: 'refused', path: opening.path, lineNumber: opening.lineNumber, message: opening.message };
  if (opening.kind === 'unreadable') return { kind: 'failed', path: opening.path, message: opening.message };
  return {
    kind: 'opened',
    target,
    targetDirectory: paths.directory,
    chain: paths.chain,
    entries: opening.entries,
    torn: opening.torn,
    live: await readLiveHolder(paths.lock),
  };
}

/** Who holds the target's lock, when that supervisor is alive. */
async function readLiveHolder(lockFile: string): Promise<LiveHolder> {
  const holder = await readLockHolder(lockFile).catch(() => 'unreadable' as const);
  if (holder === 'gone' || holder === 'unreadable' || !isLive(holder)) return 'none';
  return liveHolderOf(holder);
}
