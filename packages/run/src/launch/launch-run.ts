import { availableParallelism, freemem } from 'node:os';
import {
  acquireRepositoryLock,
  failedPath,
  formatTargetName,
  newRunId,
  openChainForAppend,
  removeDeadAttemptTemporaryDirectory,
  SerialAppender,
  writeFileDurably,
  writingFile,
  type LockHolder,
} from '@statecraft/records';
import type { RunPlan } from '../plan/plan-run.js';
import { refused, type RunFailure, type RunRefusal } from '../refusal.js';
import { launchAttempt, type HeldAttempt, type Launch, type LaunchHooks } from './launch-attempt.js';

/** What one attempt of the run came to, and what `afterAttempt` made of it. */
export interface RunAttempt<After> {
  number: number;
  plan: RunPlan;
  launch: Launch;
  after: After | undefined;
}

export type RunLaunch<After, Final> =
  | {
      kind: 'ran';
      runId: string;
      attempts: RunAttempt<After>[];
      final: Final;
      reclaimedLock: 'none' | LockHolder | 'unreadable';
    }
  | RunRefusal
  | RunFailure;

/** How much memory one attempt is counted to need: an agent's provider and its tools. */
const MEMORY_PER_ATTEMPT_BYTES = 512 * 1024 * 1024;
/** How many attempts share one core: an attempt mostly waits on its provider, not on the CPU. */
const ATTEMPTS_PER_CORE = 4;

/**
 * How many attempts this machine runs at once (decision 0312): four per core, and no more than
 * its available memory holds at 512 MiB each; at least one.
 */
export function parallelBound(): number {
  return Math.max(1, Math.min(ATTEMPTS_PER_CORE * availableParallelism(), Math.floor(freemem() / MEMORY_PER_ATTEMPT_BYTES)));
}

/**
 * A run of several attempts started together (`run --attempts N`): the target's lock taken once,
 * for the run, naming it; the chain opened and verified once; then each attempt launched through
 * launchAttempt as a single attempt is, at most `parallel` at a time, each with its own worktree,
 * branch and boundary, every record appended through one SerialAppender so that concurrent
 * attempts never fork the chain. `afterAttempt` runs once an attempt has ended, one at a time
 * (judging: each suite alone), and `beforeRelease` once every attempt has (the selection), both
 * still under the lock. An attempt not yet started when the operator interrupts is not started.
 */
export async function launchRun<After, Final>(run: {
  plans: readonly RunPlan[];
  parallel: number;
  hooks: (number: number) => LaunchHooks;
  signal?: AbortSignal;
  afterAttempt: (launch: Launch, chain: SerialAppender) => Promise<After>;
  beforeRelease: (attempts: readonly RunAttempt<After>[], chain: SerialAppender, runId: string) => Promise<Final>;
}): Promise<RunLaunch<After, Final>> {
  const [first] = run.plans;
  if (first === undefined) throw new Error('a run needs at least one attempt');
  const runId = newRunId();
  const { paths } = first;
  let lock: Awaited<ReturnType<typeof acquireRepositoryLock>>;
  try {
    lock = await acquireRepositoryLock(paths.lock, { runId, attempt: 1, holding: 'run', attempts: run.plans.length });
  } catch (error) {
    const path = failedPath(error, paths.lock);
    const message = `cannot take the target's lock (${(error as Error).message}); the product home must be a writable directory; nothing was spawned, nothing appended`;
    return { kind: 'failed', stage: 'intent', path, message, spawned: false, cause: error };
  }
  if (lock.kind === 'refused') return refused('launch', 'live-attempt', lock.message, lock.holder);
  try {
    if (typeof lock.reclaimed === 'object') await removeDeadAttemptTemporaryDirectory(lock.reclaimed);
    const opening = await openChainForAppend(paths.chain);
    if (opening.kind === 'unreadable') return { kind: 'failed', stage: 'intent', path: opening.path, message: opening.message, spawned: false };
    if (opening.kind === 'broken') return refused('launch', 'chain-broken', opening.message, { path: opening.path, lineNumber: opening.lineNumber });
    if (opening.nextSeq === 0) {
      try {
        await writingFile(paths.target, () => writeFileDurably(paths.target, formatTargetName(first.target)));
      } catch (error) {
        const message = `cannot write the target's name (${(error as Error).message}); nothing was spawned, nothing appended`;
        return { kind: 'failed', stage: 'intent', path: failedPath(error, paths.target), message, spawned: false, cause: error };
      }
    }
    const chain = new SerialAppender(paths.chain, { head: opening.head, nextSeq: opening.nextSeq, length: opening.length, torn: opening.torn });
    const reclaimedLock = lock.reclaimed;
    const held = (number: number): HeldAttempt => ({ runId, number, chain, opening, reclaimedLock });
    let afterTurn: Promise<unknown> = Promise.resolve();
    const inTurn = (launch: Launch): Promise<After> => {
      const turn = afterTurn.then(() => run.afterAttempt(launch, chain));
      afterTurn = turn.catch(() => undefined);
      return turn;
    };
    const attempts = await inPool(run.plans, run.parallel, async (plan, index): Promise<RunAttempt<After>> => {
      const number = index + 1;
      if (run.signal?.aborted === true) {
        const launch = refused('launch', 'cancelled', `the operator interrupted before attempt ${number} started; nothing appended for it`, null);
        return { number, plan, launch, after: undefined };
      }
      const launch = await launchAttempt(plan, run.hooks(number), held(number));
      return { number, plan, launch, after: await inTurn(launch) };
    });
    return { kind: 'ran', runId, attempts, final: await run.beforeRelease(attempts, chain, runId), reclaimedLock };
  } finally {
    await lock.release();
  }
}

/**
 * `work` over every item, at most `width` at once, answers in the items' order. A throw starts no
 * further item and is thrown once every item under way has ended: the run's lock is never released
 * under an attempt still running.
 */
async function inPool<T, R>(items: readonly T[], width: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const answers: R[] = new Array<R>(items.length);
  const thrown: unknown[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && thrown.length === 0) {
      const index = next;
      next += 1;
      try {
        answers[index] = await work(items[index] as T, index);
      } catch (error) {
        thrown.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, items.length)) }, worker));
  if (thrown.length > 0) throw thrown[0];
  return answers;
}
