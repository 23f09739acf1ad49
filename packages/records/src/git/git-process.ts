import { execFile } from 'node:child_process';
import { keepAbsolutePathEntries } from '@statecraft/adapter';

/** What one git process did: its exit code (undefined when it could not start) and its bytes. */
export interface GitProcessAnswer {
  exitCode: number | undefined;
  stdout: Buffer;
  stderr: Buffer;
  /** Why the process failed, in words, when it did not exit 0 (for messages when git said nothing). */
  failure: string | undefined;
  /** Set when `signal` stopped it: git was killed (SIGKILL) and this is the signal's reason, in words. */
  stopped?: string;
}

/**
 * Configuration every git statecraft runs is given, ahead of its own arguments (so ahead of any
 * repository's): no work that outlives the command. A commit runs `git maintenance run --auto`,
 * whose `gc --auto` detaches itself (gc.autoDetach) and goes on repacking the operator's
 * repository after the verb has returned — and a repository's own `gc.auto=1`, which an operator
 * or an agent's earlier configuration could set, makes every commit do so. `core.fsmonitor` off:
 * a hook command, or a daemon git would start and leave running.
 */
const NO_DETACHED_GIT_WORK: readonly string[] = ['-c', 'gc.auto=0', '-c', 'gc.autoDetach=false', '-c', 'maintenance.auto=false', '-c', 'core.fsmonitor=false'];

/** Larger than any file or listing coverage reads (execa's default, which these calls used before). */
const MAX_OUTPUT_BYTES = 100 * 1024 * 1024;

/**
 * Runs one short git command to its end — no shell, stdin closed (after `input`, when given), the given environment whole,
 * nothing of it left running after (NO_DETACHED_GIT_WORK). Every git the product runs is started here.
 * Node's own `execFile` rather than execa: every `statecraft run` makes several of these calls, and
 * execa's per-call set-up would be paid on every one; the adapter itself is still
 * spawned through execa (supervise/spawn-adapter.ts, as docs/architecture.md fixes; decision 0031).
 */
export function runGitProcess(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv, input?: string, signal?: AbortSignal): Promise<GitProcessAnswer> {
  // `git` is looked up on PATH from `cwd`, often the agent's workspace: an empty or relative entry
  // would run a `git` the agent planted there, as the supervisor (R5.1's reasoning, path-entries.ts).
  const path = env['PATH'] === undefined ? {} : { PATH: keepAbsolutePathEntries(env['PATH']).kept };
  // Already stopped: no git is started. One started and killed at once could still finish first
  // on a loaded host (a status takes milliseconds), and its answer would read as git's own.
  if (signal?.aborted === true) return Promise.resolve(stoppedBefore(signal));
  return new Promise((resolve) => {
    const child = execFile(
      'git',
      [...NO_DETACHED_GIT_WORK, ...args],
      { cwd, env: { ...env, ...path }, encoding: 'buffer', maxBuffer: MAX_OUTPUT_BYTES },
      (error, stdout, stderr) => {
        signal?.removeEventListener('abort', kill);
        if (error === null) {
          resolve({ exitCode: 0, stdout, stderr, failure: undefined });
          return;
        }
        if (signal?.aborted === true) {
          resolve({ ...stoppedBefore(signal), stdout, stderr });
          return;
        }
        // A number: git's exit code. A string (ENOENT, ERR_CHILD_PROCESS_STDIO_MAXBUFFER …): it did not run to its end.
        const exitCode = typeof error.code === 'number' ? error.code : undefined;
        resolve({ exitCode, stdout, stderr, failure: exitCode === undefined ? `git could not run: ${error.message}` : `git exited ${exitCode}` });
      },
    );
    // Killed by hand, not through execFile's own `signal`: that sends SIGTERM (its `killSignal` is
    // not used for an abort on Node 20) and answers at once, before git has exited. SIGKILL leaves
    // git no handler to run past its bound, and this answer comes once it is gone.
    function kill(): void {
      child.kill('SIGKILL');
    }
    signal?.addEventListener('abort', kill, { once: true });
    // `input`: what a batch command (`cat-file --batch`) reads; else stdin is closed at once. A git
    // that exits before reading it all makes the write fail (EPIPE): its exit status says what happened.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input);
  });
}

/** The answer of a git `signal` stopped: killed, or never started, with the signal's reason in words. */
function stoppedBefore(signal: AbortSignal): GitProcessAnswer {
  const stopped = signal.reason instanceof Error ? signal.reason.message : String(signal.reason);
  return { exitCode: undefined, stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), failure: `git was stopped: ${stopped}`, stopped };
}
