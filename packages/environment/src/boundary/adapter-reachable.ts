import { readFileSync } from 'node:fs';
import type { BoundaryResidual } from '@statecraft/adapter';

/**
 * What the boundary does not deny between the adapter and the processes the agent starts (R12).
 * They run inside the same sandbox as the adapter, as the same uid, in the same PID namespace.
 * The seccomp filter denies every system call that attaches to another process (ptrace,
 * `pidfd_getfd`, `process_vm_readv`, `process_vm_writev`: seccomp-filter.ts), but a write to
 * `/proc/<pid>/mem` is an open and a write: /proc stays writable for an adapter's sandbox, since
 * a nested user namespace (Codex's own sandbox makes one) writes its uid map there. Through it a
 * process could rewrite the adapter's memory and forge the events it writes, a result included.
 * The kernel grants it as ptrace "attach" access, which Yama (`kernel.yama.ptrace_scope` 1 or
 * more) refuses to anything but an ancestor — and the agent's processes are the adapter's
 * descendants. So it is open unless Yama says 1 or more, read here once per launch (one small
 * procfs read), and named on the attempt when open. A check's sandbox mounts /proc read-only.
 *
 * Reopening the adapter's stdout through `/proc/<pid>/fd/1` (which asks only for "read" access,
 * which Yama does not restrict) is not a way in: the supervisor hands it a socket, and the kernel
 * answers ENXIO to opening a socket by that path (measured: test/e2e/boundary/boundary-adapter-reachable.test.ts).
 */

/** Yama's setting: a number; `absent` when there is no Yama (no such file); `unreadable` otherwise. */
export type PtraceScope = number | 'absent' | 'unreadable';

const PTRACE_SCOPE_FILE = '/proc/sys/kernel/yama/ptrace_scope';

/** `kernel.yama.ptrace_scope`, read once per call. */
export function readPtraceScope(file: string = PTRACE_SCOPE_FILE): PtraceScope {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'absent' : 'unreadable';
  }
  const value = Number.parseInt(text.trim(), 10);
  return Number.isInteger(value) ? value : 'unreadable';
}

/** The residual for one launch: none when Yama refuses attaching to an ancestor; else what is open, and why. */
export function adapterReachableResiduals(scope: PtraceScope): BoundaryResidual[] {
  if (typeof scope === 'number' && scope >= 1) return [];
  const why =
    scope === 'absent' ? 'there is no Yama here' : scope === 'unreadable' ? "Yama's ptrace_scope could not be read" : `kernel.yama.ptrace_scope is ${scope}`;
  return [
    {
      id: 'adapter-attachable',
      statement:
        'the processes the agent starts can write the memory of the adapter and of the provider it runs through /proc/<pid>/mem: ' +
        `they share its uid and PID namespace and ${why} (kernel.yama.ptrace_scope 1 or more closes this), ` +
        'so they can rewrite what it writes and forge its events, a result included',
    },
  ];
}
