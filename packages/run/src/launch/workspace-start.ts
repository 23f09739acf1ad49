import type { AttemptStart } from '@statecraft/adapter';
import type { RunPlan } from '../plan/plan-run.js';
import { refused, type RunRefusal } from '../refusal.js';
import { newRunStart, readAttemptStart } from '../workspace/attempt-start.js';
import { endOfAttemptBoundMs } from './end-of-attempt-bound.js';

/** The workspace as the attempt finds it, or the refusal that appends nothing. */
export type WorkspaceStart = { kind: 'read'; start: AttemptStart } | RunRefusal;

/**
 * The workspace as this attempt finds it (R13.2), read before its intent so that what the attempt
 * changes can be told from what was there. A new run's is its base, just checked out: no git. A
 * retry's is read from the repository's side (attempt-start.ts) — the tree an earlier agent left,
 * so within the bound the end's git has, and stopped at the operator's interrupt. Unread, the
 * attempt is refused: its candidate could not be told from what it inherited.
 */
export async function readWorkspaceStart(
  plan: RunPlan,
  workspace: string,
  gitDirectory: Promise<string | undefined>,
  interrupt: AbortSignal | undefined,
): Promise<WorkspaceStart> {
  if (plan.retry === 'none' && plan.baseTree !== undefined) return { kind: 'read', start: newRunStart(plan.baseCommit, plan.baseTree) };
  const directory = await gitDirectory;
  const boundMs = endOfAttemptBoundMs(plan.request.deadlineMs);
  const bound = new AbortController();
  const timer = setTimeout(() => bound.abort(new Error(`reading it took more than ${boundMs / 1000} s, the bound of an attempt's end`)), boundMs);
  const onInterrupt = (): void => bound.abort(new Error('the operator interrupted'));
  if (interrupt?.aborted === true) onInterrupt();
  else interrupt?.addEventListener('abort', onInterrupt, { once: true });
  try {
    const reading =
      directory === undefined
        ? { kind: 'unread' as const, message: `no worktree of ${plan.target.commonDirectory} is registered at ${workspace}` }
        : await readAttemptStart({
            workspace,
            gitDirectory: directory,
            baseCommit: plan.baseCommit,
            earlier: plan.retry === 'none' ? [] : plan.retry.candidates,
            signal: bound.signal,
          });
    if (reading.kind === 'read') return reading;
    if (interrupt?.aborted === true) return refused('launch', 'cancelled', 'the operator interrupted before the intent was written; nothing appended', null);
    return refused(
      'launch',
      'workspace',
      `cannot read the workspace ${workspace} as the attempt finds it (${reading.message}); nothing was spawned, nothing appended`,
      {
        path: workspace,
      },
    );
  } finally {
    clearTimeout(timer);
    interrupt?.removeEventListener('abort', onInterrupt);
  }
}
