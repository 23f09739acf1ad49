import { failedPath } from '../failed-file.js';
import { type ChainPaths } from '../chain/chain-paths.js';
import { openChain, type ChainOpening, type LinkedRecord } from '../chain/open-chain.js';
import { type ChainRecord, type UnlinkedRecord } from '../chain/record-schemas.js';
import { appendRecord, type AppendedRecord } from '../chain/append-record.js';
import type { SerialAppender } from '../chain/serial-appender.js';
import { refusalOfContradictedChain } from '../chain/chain-checkpoint.js';
import { type LockHolder } from './lock-holder.js';
import { acquireRepositoryLock } from './repository-lock.js';

/** What a verb that appends under the lock answers when the lock or the chain stops it. */
export type LockedChainStop = { kind: 'refused'; reason: 'live-attempt' | 'chain-broken'; message: string } | { kind: 'failed'; path: string; message: string };

/** A chain opened with every link verified. */
export type OpenedChain<R extends LinkedRecord = ChainRecord> = Extract<ChainOpening<R>, { kind: 'opened' }>;

/** Every link verified, and a chain its checkpoint contradicts refused before anything appends to it. */
export async function openChainToAppend(chain: string): Promise<ChainOpening> {
  return refusalOfContradictedChain(chain) ?? openChain(chain);
}

/** How the work appends its record: at the opening's tip, or through the appender of the run that holds the lock. */
export type AppendUnderLock = (record: UnlinkedRecord) => Promise<AppendedRecord>;

/**
 * The step `accept`, `land` and `prune` share: the target's lock taken (a live holder refuses, as
 * `live-attempt`), the chain opened with `open` (a broken one refused, an unreadable one an i/o
 * failure), `work` run with the opening (and how to append), and the lock released after it, whatever happened —
 * `beforeRelease` first (work still running beside it). A throw from `work` is `failed`'s to word;
 * `nothing` ends every refusal and failure here (e.g. `nothing landed`).
 */
export async function underTargetLock<Read extends LinkedRecord, Answer>(options: {
  paths: ChainPaths;
  holder: Omit<LockHolder, 'pid' | 'host' | 'since'>;
  nothing: string;
  open: (chain: string) => Promise<ChainOpening<Read>>;
  work: (opening: OpenedChain<Read>, append: AppendUnderLock) => Promise<Answer>;
  failed: (error: unknown) => Extract<LockedChainStop, { kind: 'failed' }>;
  beforeRelease?: () => Promise<void>;
  /**
   * The chain of a run that already holds the target's lock for several attempts: no lock is
   * taken, the chain is read in the appender's turn and the work appends through it.
   */
  held?: SerialAppender;
}): Promise<Answer | LockedChainStop> {
  const { paths, nothing, held } = options;
  if (held !== undefined)
    return workOnChain(
      options,
      () => held.read(() => options.open(paths.chain)),
      (record) => held.append(() => record),
    );
  let lock: Awaited<ReturnType<typeof acquireRepositoryLock>>;
  try {
    lock = await acquireRepositoryLock(paths.lock, options.holder);
  } catch (error) {
    // A full or read-only home, a lock that is a directory: an i/o failure naming the file, not a crash.
    return { kind: 'failed', path: failedPath(error, paths.lock), message: `cannot take the target's lock (${(error as Error).message}); ${nothing}` };
  }
  if (lock.kind === 'refused') return { kind: 'refused', reason: 'live-attempt', message: `${lock.message}; ${nothing}` };
  try {
    let opened: OpenedChain<Read> | undefined;
    return await workOnChain(
      options,
      async () => {
        const opening = await options.open(paths.chain);
        if (opening.kind === 'opened') opened = opening;
        return opening;
      },
      (record) => {
        if (opened === undefined) throw new Error('an append before the chain was opened');
        const { head, nextSeq, length, torn } = opened;
        return appendRecord(paths.chain, { head, nextSeq, length, torn }, record);
      },
    );
  } finally {
    await lock.release();
  }
}

/** The chain opened, a broken or unreadable one stopped, the work run; `beforeRelease` whatever happened. */
async function workOnChain<Read extends LinkedRecord, Answer>(
  options: Pick<Parameters<typeof underTargetLock<Read, Answer>>[0], 'work' | 'failed' | 'beforeRelease'>,
  open: () => Promise<ChainOpening<Read>>,
  append: AppendUnderLock,
): Promise<Answer | LockedChainStop> {
  try {
    const opening = await open();
    if (opening.kind === 'unreadable') return { kind: 'failed', path: opening.path, message: opening.message };
    if (opening.kind === 'broken') return { kind: 'refused', reason: 'chain-broken', message: opening.message };
    return await options.work(opening, append);
  } catch (error) {
    return options.failed(error);
  } finally {
    await options.beforeRelease?.();
  }
}
