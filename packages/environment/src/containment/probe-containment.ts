import { execFile } from 'node:child_process';
import { findExecutableOnPath } from '@statecraft/adapter';
import type { Containment, ContainmentMechanism } from '@statecraft/adapter';
import type { BoundaryLaunch } from '../boundary/bwrap-boundary.js';

/**
 * Forces the process-group fallback when set to `process-group`, so tests and CI can exercise
 * both containment paths on a machine where a PID namespace is available.
 */
export const CONTAINMENT_OVERRIDE_VARIABLE = 'STATECRAFT_CONTAINMENT';

/** The flags that put the child in its own PID namespace, killed with its first process (R7.3). */
const UNSHARE_FLAGS = ['--map-current-user', '--pid', '--fork', '--kill-child', '--mount-proc'] as const;

export type PidNamespaceProbe = { available: true; launch: readonly string[] } | { available: false; reason: string };

/**
 * What starts `unshare`: util-linux `setpriv --pdeathsig KILL` where it is found, so that unshare —
 * whose `--kill-child` takes the whole namespace with it — dies with the supervisor. Each spawn
 * leads a session of its own (spawn-adapter.ts), so a supervisor killed outright (SIGKILL, the
 * OOM killer) left the namespace running with no deadline over it. Without setpriv, unshare alone.
 */
function unshareLaunch(unshare: string, setpriv: string | undefined): readonly string[] {
  return setpriv === undefined ? [unshare, ...UNSHARE_FLAGS] : [setpriv, '--pdeathsig', 'KILL', unshare, ...UNSHARE_FLAGS];
}

/** What each mechanism cannot see, in words (R6, R7.3): recorded on every attempt. */
const BLIND_SPOTS: Readonly<Record<ContainmentMechanism, readonly string[]>> = {
  'pid-namespace': [
    "a process started on the attempt's behalf by a service outside the namespace (for example through a socket to a daemon) is not a descendant and is not killed",
  ],
  bwrap: [
    "a process started on the attempt's behalf by a service outside the sandbox (for example through a Unix socket to a daemon) is not a descendant and is not killed",
  ],
  'process-group': [
    'a descendant that leaves the process group and removes STATECRAFT_ATTEMPT_TAG from its environment (for example by exec with a new environment) is not found by the sweep',
    "a process started on the attempt's behalf by a service outside the attempt (for example through a socket to a daemon) is not a descendant and is not killed",
  ],
};

let probed: Promise<PidNamespaceProbe> | undefined;

/**
 * Whether a PID namespace can be made here, asked once per process and cached: the answer does
 * not change while the supervisor runs, and the probe costs a process spawn.
 */
export function probeContainment(): Promise<PidNamespaceProbe> {
  probed ??= probePidNamespace();
  return probed;
}

async function probePidNamespace(): Promise<PidNamespaceProbe> {
  if (process.platform !== 'linux') return { available: false, reason: `PID namespaces are a Linux mechanism; this is ${process.platform}` };
  // The supervisor's own PATH finds util-linux; the child's constructed environment may have none.
  const unshare = findExecutableOnPath('unshare', process.env.PATH);
  if (unshare === undefined) return { available: false, reason: 'no unshare executable (util-linux) on PATH' };
  const launch = unshareLaunch(unshare, findExecutableOnPath('setpriv', process.env.PATH));
  // Node's own execFile: this probe runs at the start of every `statecraft run`, where execa's
  // per-call set-up was a measurable part of the start.
  const failure = await new Promise<string | undefined>((resolve) => {
    const child = execFile(launch[0]!, [...launch.slice(1), 'true'], { timeout: 10_000 }, (error, _stdout, stderr) => {
      if (error === null) resolve(undefined);
      else resolve(stderr.trim() !== '' ? stderr.trim() : error.message);
    });
    child.stdin?.end();
  });
  if (failure === undefined) return { available: true, launch };
  return { available: false, reason: `${launch.join(' ')} failed: ${failure}` };
}

/**
 * The override, checked strictly: a misspelt value silently ignored would let CI believe it tested
 * the fallback when it did not. `auto` or unset: no override.
 */
export function readContainmentOverride(): 'auto' | 'process-group' {
  const value = process.env[CONTAINMENT_OVERRIDE_VARIABLE];
  if (value === undefined || value === '' || value === 'auto') return 'auto';
  if (value === 'process-group') return 'process-group';
  throw new Error(`${CONTAINMENT_OVERRIDE_VARIABLE}=${value} is not understood; use "process-group" to force the fallback, or "auto"`);
}

/** The mechanism an attempt will use, and how to start it under that mechanism. */
export type ContainmentChoice =
  | { containment: Containment & { mechanism: 'pid-namespace' }; launch: readonly string[] }
  | { containment: Containment & { mechanism: 'process-group' } }
  | { containment: Containment & { mechanism: 'bwrap' }; boundary: BoundaryLaunch };

/**
 * Chooses the mechanism (R7.3): a PID namespace where one can be made, else the process group.
 * `STATECRAFT_CONTAINMENT=process-group` in the supervisor's environment forces the fallback. A
 * requested PID namespace that is unavailable falls back, and the record says which ran and why.
 */
export async function chooseContainment(requested: 'auto' | Exclude<ContainmentMechanism, 'bwrap'> = 'auto'): Promise<ContainmentChoice> {
  const forced = readContainmentOverride();
  if (requested === 'process-group' || (requested === 'auto' && forced === 'process-group')) {
    return { containment: { mechanism: 'process-group', blindSpots: [...BLIND_SPOTS['process-group']] } };
  }
  const probe = await probeContainment();
  if (probe.available) {
    return { containment: { mechanism: 'pid-namespace', blindSpots: [...BLIND_SPOTS['pid-namespace']] }, launch: probe.launch };
  }
  const fellBack = `no PID namespace could be made (${probe.reason}); the process group was used instead`;
  return { containment: { mechanism: 'process-group', blindSpots: [fellBack, ...BLIND_SPOTS['process-group']] } };
}
