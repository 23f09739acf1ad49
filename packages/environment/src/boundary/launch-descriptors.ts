import { closeSync, constants, fstatSync, mkdtempSync, openSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BoundaryProfile } from '@statecraft/adapter';
import { seccompFilterProgram } from './seccomp-filter.js';

/** O_PATH: a handle on where a path leads, opened without reading it (not in node's constants). Node adds O_CLOEXEC itself. */
const O_PATH = 0o10000000;

/** The first descriptor a bwrap launch is handed beyond stdio: its binds in profile order, then the seccomp filter. */
export const FIRST_LAUNCH_DESCRIPTOR = 3;

/** What one spawn of bwrap is handed: descriptors for its stdio slots 3 and on, closed in the supervisor once spawned. */
export interface LaunchDescriptors {
  descriptors: number[];
  close: () => void;
}

/**
 * Opens what one bwrap spawn binds (R12), in the order its arguments name them (`--bind-fd N`):
 * each source by descriptor, so what is bound is what was opened here, whatever is done to the path
 * after — bwrap never resolves a source path itself, and no link laid into it while the sandbox is
 * assembled (by a check running candidate code, or any sandbox writing beside it) is followed.
 * Each is opened at the real path found when the boundary was established, its last component
 * unfollowed, and must be there still: the descriptor's own path (/proc/self/fd/N) is that path and
 * it is no link. Else nothing is handed and the spawn is refused, naming the path. The filter comes
 * last (seccomp-filter.ts), from a file made for this spawn and removed at once.
 */
export function openLaunchDescriptors(sources: readonly string[], profile: Pick<BoundaryProfile, 'checks'> = {}): LaunchDescriptors {
  const opened: number[] = [];
  const close = () => {
    for (const descriptor of opened.splice(0)) closeSync(descriptor);
  };
  try {
    for (const source of sources) opened.push(openBindSource(source));
    opened.push(openFilter(profile.checks === true));
  } catch (error) {
    close();
    throw error;
  }
  return { descriptors: [...opened], close };
}

/** Descriptors opened ahead for one spawn, taken once: a launch set up beside its probe is handed what the probe's were opened with. */
export interface OpenedAhead {
  take: () => LaunchDescriptors | undefined;
}

export function openedAhead(descriptors: LaunchDescriptors): OpenedAhead {
  let held: LaunchDescriptors | undefined = descriptors;
  return {
    take: () => {
      const taken = held;
      held = undefined;
      return taken;
    },
  };
}

function openBindSource(source: string): number {
  const descriptor = openSync(source, O_PATH | constants.O_NOFOLLOW);
  let problem: string | undefined;
  try {
    const reached = readlinkSync(`/proc/self/fd/${descriptor}`);
    if (fstatSync(descriptor).isSymbolicLink()) problem = 'it is now a symbolic link';
    else if (reached !== source) problem = `it now leads to ${reached}`;
  } catch (error) {
    problem = `it could not be checked (${(error as Error).message})`;
  }
  if (problem === undefined) return descriptor;
  closeSync(descriptor);
  throw new Error(`the bind source ${source} is no longer what the boundary was set up with: ${problem}; nothing was started`);
}

function openFilter(checks: boolean): number {
  const filter = seccompFilterProgram(process.arch, { checks });
  if ('refused' in filter) throw new Error(filter.refused);
  const directory = mkdtempSync(join(tmpdir(), 'statecraft-seccomp-'));
  try {
    const file = join(directory, 'filter.bpf');
    writeFileSync(file, filter.program, { mode: 0o400 });
    return openSync(file, constants.O_RDONLY);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
