import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import type { ContainmentMechanism } from '@statecraft/adapter';
import { ATTEMPT_TAG_VARIABLE } from '@statecraft/adapter';

/**
 * What ends the attempt's tree when the supervisor dies outright (SIGKILL, the OOM killer), where
 * the kernel alone does not (R7.2, R7.3). Under the boundary bwrap's `--die-with-parent` does.
 * Under the PID namespace setpriv's parent-death signal ends unshare and unshare's `--kill-child`
 * the namespace's first process, the adapter itself, which can clear that signal with one prctl
 * call and run on with no deadline. A process group has no tie at all.
 *
 * The warden is a shell in a session of its own that waits on a pipe only the supervisor holds. The
 * supervisor's death closes it: the warden kills the group it was given (the adapter's, or
 * unshare's, which the namespace's first process stays in unless it leaves), then every process that
 * carries the attempt's tag (the fallback's own sweep, find-attempt-processes.ts, for descendants
 * that left the group; a PID namespace ends with its first process). Once the supervisor has ended
 * the tree itself it writes `done`, and the warden leaves killing nothing: a group id the kernel has
 * reclaimed may be another's by then.
 *
 * Its environment holds no tag, so it is no process of the attempt. The adapter can kill it (the
 * same user), or leave the group and scrub its tag: that is within what these mechanisms already
 * leave open, since it can signal its supervisor too (the boundary record's residuals under
 * `--boundary none`).
 */
const WARDEN_SCRIPT = [
  'IFS= read -r word',
  '[ "$word" = done ] && exit 0',
  'kill -KILL -- "-$1" 2>/dev/null',
  'for entry in /proc/[0-9]*; do',
  '  tr "\\000" "\\n" < "$entry/environ" 2>/dev/null | grep -qxF -e "$2" && kill -KILL "${entry#/proc/}" 2>/dev/null',
  'done',
  'exit 0',
].join('\n');

/** Its name in `ps`: the warden's `$0`. */
export const WARDEN_NAME = 'statecraft-warden';

export interface SupervisorDeathWarden {
  /** The tree is ended: the warden leaves without killing. Safe to call more than once. */
  release(): void;
}

/**
 * The warden of a process just started contained (its pid leads its own process group, spawn-adapter.ts),
 * under the mechanisms the kernel does not end with the supervisor: none under the boundary.
 */
export function wardenFor(mechanism: ContainmentMechanism, pid: number | undefined, attemptTag: string): SupervisorDeathWarden | undefined {
  return mechanism !== 'bwrap' && pid !== undefined ? startWarden(pid, attemptTag) : undefined;
}

function startWarden(processGroup: number, attemptTag: string): SupervisorDeathWarden {
  const warden = spawn('/bin/sh', ['-c', WARDEN_SCRIPT, WARDEN_NAME, String(processGroup), `${ATTEMPT_TAG_VARIABLE}=${attemptTag}`], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
    env: { PATH: '/usr/bin:/bin' },
  });
  // A warden that cannot start leaves the mechanism as it was; it is never the attempt's failure.
  warden.on('error', () => undefined);
  const pipe = warden.stdin as Socket | null;
  pipe?.on('error', () => undefined);
  // Neither the warden nor its pipe keeps the supervisor's event loop alive: it waits for the supervisor, not the reverse.
  warden.unref();
  pipe?.unref();
  let released = false;
  return {
    release: () => {
      if (released) return;
      released = true;
      pipe?.end('done\n');
    },
  };
}
