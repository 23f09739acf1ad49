import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { makeDirectories } from '@statecraft/adapter';
import * as z from 'zod';
import { sha256Hex } from '@statecraft/adapter';
import { findExecutableOnPath } from '@statecraft/adapter';
import type { Containment } from '@statecraft/adapter';
import { BWRAP_RESIDUALS, type BoundaryPath, type BoundaryProfile, type BoundaryRecord, type ProbeCheck } from '@statecraft/adapter';
import { CLOSER_SCRIPT, GATE_GO, GATED_CLOSER_SCRIPT, PROBE_SCRIPT, readProbeOutput } from './boundary-probe.js';
import { runQuietly } from './run-quietly.js';
import { findOtherViews, type ProductHomeView } from './product-home-views.js';
import { startTimeOfThisProcess } from '@statecraft/adapter';
import { FIRST_LAUNCH_DESCRIPTOR, openedAhead, openLaunchDescriptors, type LaunchDescriptors, type OpenedAhead } from './launch-descriptors.js';
import { adapterReachableResiduals, readPtraceScope } from './adapter-reachable.js';
import { seccompFilterProgram } from './seccomp-filter.js';

/**
 * The protected evidence boundary's mechanism on Linux: bubblewrap (R12). One file, the same hooks
 * as the other containment mechanisms — before the spawn (`establishBoundary`: find bwrap, run the
 * probe in the very profile the adapter will get), wrapping the child (`boundaryCommand`), and the
 * kill (the PID namespace: see kill-tree.ts). With the boundary on, bwrap's PID namespace is the
 * containment, replacing `unshare`.
 */

/** The uid/gid the child gets inside its user namespace: never 0, so it holds no capability (docs/facts.md items 15, 16). */
const SANDBOX_ID = '1000';

/** How long the probe may take before the boundary counts as not established. */
const PROBE_TIMEOUT_MS = 10_000;

/** What starting a command in the boundary's sandbox takes: known before the probe has run. */
export type BoundaryLaunch = {
  bwrap: string;
  /** Bash, which closes inherited descriptors before the adapter runs. */
  closer: string;
  /** `env`, which the closer ends with, to take out the names bash adds. */
  env: string;
  /** bwrap's arguments before `--`: the applied profile. */
  args: readonly string[];
  /**
   * What each `--bind-fd`/`--ro-bind-fd` of `args` binds, in order: the real path found when the
   * boundary was established, opened afresh and checked for each spawn (launch-descriptors.ts).
   */
  sources: readonly string[];
  /** The launch set up beside the probe: its descriptors, opened and checked with the probe's; any later spawn opens its own. */
  ahead?: OpenedAhead;
  /** An acceptance's checks: the filter also denies changing extended attributes (the profile's `checks`). */
  checks?: true;
};

/** The boundary once its probe has held: the launch, and the record of what was applied and probed. */
export type EstablishedBoundary = BoundaryLaunch & {
  record: Extract<BoundaryRecord, { mechanism: 'bwrap' }>;
};

export type BoundaryRefusalReason = 'bwrap-missing' | 'namespaces-refused' | 'probe-failed';

export type BoundaryEstablishment =
  { kind: 'established'; boundary: EstablishedBoundary } | { kind: 'refused'; reason: BoundaryRefusalReason; message: string; probe: ProbeCheck[] | 'not-run' };

export interface BoundaryRequest {
  profile: BoundaryProfile;
  /** The constructed environment: bwrap must be on its PATH. */
  environment: Readonly<Record<string, string>>;
  /** The adapter's working directory, writable in the profile. */
  workspace: string;
  /**
   * Remembers bwrap's version across processes (the caller's store: environment writes nothing
   * under the product home); absent: asked once per process.
   */
  rememberVersion?: RememberBwrapVersion;
  /**
   * Settles true once the workspace holds what the probe may write beside (git has added the
   * worktree into the directory made for it): the sandbox is started at once, and its checks wait
   * for this — so setting the sandbox up costs the launch nothing while git works. False: the
   * probe ends without a check (the launch is refused by what failed). Absent: the checks run at once.
   */
  workspaceReady?: Promise<boolean>;
  /**
   * Told the sandbox's launch as soon as the probe is started, so a launch in the same profile can
   * be set up beside the probe and wait at its closer's gate (superviseAdapter's `gate`). Whoever
   * sets it up must not open its gate unless this answers `established`.
   */
  onLaunch?: (launch: BoundaryLaunch) => void;
}

const WAY_OUT = 'or run without the boundary with --boundary none (or STATECRAFT_BOUNDARY=none), which every record of the attempt then says';
const INSTALL = 'install bubblewrap (Debian and Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)';
const NAMESPACE_REMEDY =
  'user namespaces are refused here: on Ubuntu 24.04 run `sysctl -w kernel.apparmor_restrict_unprivileged_userns=0` or give /usr/bin/bwrap an AppArmor profile that allows `userns`; ' +
  'inside a container, allow unshare/clone of namespaces in its seccomp profile; check that /proc/sys/user/max_user_namespaces is not 0';

/** The roles whose paths arrive resolved and checked (prepareManagedPaths, withAuthorityReadOnly). */
const GIVEN_RESOLVED: ReadonlySet<BoundaryPath['role']> = new Set(['managed-path', 'authority']);

/** Where the kernel lists keys and their owners' quotas: read as an empty, unreadable file inside. */
const PROC_KEY_FILES = ['/proc/keys', '/proc/key-users'];

/** What each bind of `profileArguments` binds, in its descriptor order: `real` answers an entry's real path. */
export function bindSources(profile: BoundaryProfile, real: (entry: BoundaryPath) => string): string[] {
  return orderedBinds(profile).map((bind) => real(bind.entry));
}

/**
 * Every bind in the order bwrap makes them: what holds the launch's programs first (a project
 * directory in a hidden home may hold the workspace, which is then bound writable over it), then
 * the writable paths, then the rest read-only.
 */
function orderedBinds(profile: BoundaryProfile): { entry: BoundaryPath; writable: boolean }[] {
  const programs = profile.readOnly.filter((entry) => entry.role === 'program');
  return [
    ...programs.map((entry) => ({ entry, writable: false })),
    ...profile.writable.map((entry) => ({ entry, writable: true })),
    ...profile.readOnly.filter((entry) => entry.role !== 'program').map((entry) => ({ entry, writable: false })),
  ];
}

/** The bwrap arguments for a profile, each path written by `write` (its real path, or its role for the digest). */
export function profileArguments(profile: BoundaryProfile, workspace: BoundaryPath, write: (entry: BoundaryPath) => string): string[] {
  const args = ['--unshare-user', '--uid', SANDBOX_ID, '--gid', SANDBOX_ID, '--unshare-pid', '--unshare-ipc', '--die-with-parent', '--new-session'];
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc');
  // The keys the sandbox could view, by description, listed without a system call (seccomp-filter.ts denies the calls).
  for (const file of PROC_KEY_FILES.filter((path) => existsSync(path))) args.push('--ro-bind', '/dev/null', file);
  // Read-only, so no process inside writes another's memory through /proc/<pid>/mem (seccomp-filter.ts
  // denies the other ways to attach). A check's sandbox only: a nested user namespace, as Codex's own
  // sandbox makes, writes its uid map there.
  if (profile.checks === true) args.push('--remount-ro', '/proc');
  // The homes first, as empty tmpfs: what is hidden or bound below one is laid over it after.
  const homes = profile.hidden.filter(isHome);
  for (const entry of homes) args.push('--perms', entry.role === 'operator-home' ? '0700' : '0755', '--tmpfs', write(entry));
  for (const entry of profile.hidden.filter((entry) => !isHome(entry))) args.push('--perms', '000', '--tmpfs', write(entry), '--remount-ro', write(entry));
  for (const link of profile.links ?? []) args.push('--symlink', write({ path: link.target, role: link.role }), write(link));
  // Bound by descriptor, opened for each spawn in this order (launch-descriptors.ts): bwrap resolves no source path.
  let descriptor = FIRST_LAUNCH_DESCRIPTOR;
  for (const bind of orderedBinds(profile)) args.push(bind.writable ? '--bind-fd' : '--ro-bind-fd', String(descriptor++), write(bind.entry));
  // Another's home read-only only now: bwrap makes the mount points of the binds below it first.
  for (const entry of homes) if (entry.role === 'other-home') args.push('--remount-ro', write(entry));
  args.push('--seccomp', String(descriptor));
  args.push('--chdir', write(workspace));
  return args;
}

/** A home hidden under an empty tmpfs, over which the paths the child reaches are bound (boundary-record.ts). */
function isHome(entry: BoundaryPath): boolean {
  return entry.role === 'operator-home' || entry.role === 'other-home';
}

/** The sandbox's digest: its exact argument list with per-attempt paths replaced by their roles. */
export function profileDigest(profile: BoundaryProfile): string {
  const normalised = profileArguments(profile, { path: 'workspace', role: 'workspace' }, (entry) => `<${entry.role}>`);
  return `sha256:${sha256Hex(JSON.stringify(normalised))}`;
}

const versions = new Map<string, Promise<string>>();

/** A store that answers bwrap's version from memory, or asks (`ask`) and may remember the answer. */
type RememberBwrapVersion = (bwrap: string, ask: () => Promise<string>) => Promise<string>;

/** `bwrap --version`, asked once per executable and process, and once per binary when a store is given. */
function bwrapVersion(bwrap: string, remember: RememberBwrapVersion | undefined): Promise<string> {
  let version = versions.get(bwrap);
  if (version === undefined) {
    const ask = () => runQuietly(bwrap, ['--version'], { timeoutMs: PROBE_TIMEOUT_MS }).then((answer) => answer.stdout.trim() || 'not-recorded');
    version = remember === undefined ? ask() : remember(bwrap, ask);
    versions.set(bwrap, version);
  }
  return version;
}

/** A failure of bwrap itself (no probe line printed), read for the namespace refusal it most often is. */
function refusalOfBwrapFailure(stderr: string, error: string | undefined): { reason: BoundaryRefusalReason; why: string } {
  const said = stderr.trim() !== '' ? stderr.trim() : (error ?? 'no message');
  if (/namespace|uid map|gid map|Operation not permitted|Permission denied|ENOSPC/i.test(said)) {
    return { reason: 'namespaces-refused', why: `bwrap could not make its sandbox (${said}); ${NAMESPACE_REMEDY}` };
  }
  return { reason: 'probe-failed', why: `bwrap could not run the probe (${said})` };
}

/**
 * Establishes the boundary for one launch (R12): bwrap on the constructed PATH, then the probe run
 * in the same profile, with a canary placed in the product home. Refused — exit 2 for the caller,
 * nothing spawned for the adapter — unless every check held. The canary and any file a probe
 * write left are removed whatever the answer.
 */
export async function establishBoundary(request: BoundaryRequest): Promise<BoundaryEstablishment> {
  const tools = findBoundaryTools(request.environment.PATH);
  if (tools.kind === 'refused') return tools;
  const { bwrap, closer, env } = tools;
  const home = request.profile.hidden.find((entry) => entry.role === 'product-home');
  if (home === undefined) throw new Error('a boundary profile must hide the product home');
  const workspace: BoundaryPath = { path: request.workspace, role: 'workspace' };
  // Every other mount that reaches the home is hidden and probed as the home is (product-home-views.ts).
  let views: ProductHomeView[];
  try {
    views = findOtherViews(home.path);
  } catch (error) {
    // Unread, a view would go unhidden and unprobed: refused, as a probe that cannot run is.
    return refusedBoundary('probe-failed', `the mount table could not be read to find other mounts reaching the product home (${(error as Error).message})`);
  }
  const profile = withProductHomeViews(request.profile, views);
  const unhideable = pathsThatCannotBeHidden(profile, workspace);
  if (unhideable !== undefined) return refusedBoundary('probe-failed', unhideable);
  // With its pid, what tells the supervisor from a sandbox process given the same number (PROBE_SCRIPT).
  const supervisorStart = startTimeOfThisProcess();
  if (supervisorStart === undefined) {
    return refusedBoundary(
      'probe-failed',
      "the supervisor's start time could not be read from /proc/self/stat, so the probe could not tell it from another process",
    );
  }
  const filter = seccompFilterProgram();
  if ('refused' in filter) return refusedBoundary('probe-failed', filter.refused);
  const args = profileArguments(profile, workspace, (entry) => entry.path);
  // Resolved once, here, before anything of the launch runs: each spawn binds what is found now, or
  // nothing. A managed path or an authority entry was resolved and checked by whoever gave it, and
  // lies where another sandbox may write: it is taken as given, never resolved again.
  let sources: string[];
  try {
    sources = bindSources(profile, (entry) => (GIVEN_RESOLVED.has(entry.role) ? entry.path : realpathSync(entry.path)));
  } catch (error) {
    return refusedBoundary('probe-failed', `a path the sandbox binds could not be resolved (${(error as Error).message})`);
  }

  // Synchronous up to the probe's spawn: what runs beside it (git checking the workspace out) is
  // child processes too, and an await here would wait for their spawns to hand the loop back.
  makeDirectories(home.path, 0o700);
  const nonce = randomUUID();
  const canary = join(home.path, `.statecraft-boundary-canary-${nonce}`);
  const homes = homeProbes(profile, workspace, nonce);
  const leftovers = [
    join(outsideEveryHome(dirname(request.workspace), profile), `.statecraft-boundary-probe-${nonce}`),
    join(home.path, `.statecraft-boundary-probe-${nonce}`),
    join(request.workspace, `.statecraft-boundary-probe-${nonce}`),
  ];
  try {
    // Empty: the probe only tries to open it, and an empty file takes no data block in a nearly full home.
    writeFileSync(canary, '', { mode: 0o600 });
    for (const planted of homes.canaries) writeFileSync(planted, '', { mode: 0o600 });
    // The probe's and the launch's, opened together: a source that moved is refused here, before anything is spawned or appended.
    let descriptors: LaunchDescriptors;
    let launchDescriptors: LaunchDescriptors | undefined;
    try {
      descriptors = openLaunchDescriptors(sources, profile);
    } catch (error) {
      return refusedBoundary('probe-failed', (error as Error).message);
    }
    try {
      launchDescriptors = request.onLaunch === undefined ? undefined : openLaunchDescriptors(sources, profile);
    } catch (error) {
      descriptors.close();
      return refusedBoundary('probe-failed', (error as Error).message);
    }
    const probing = runQuietly(
      bwrap,
      [
        ...args,
        '--',
        closer,
        '-c',
        CLOSER_SCRIPT,
        'closer',
        'PATH',
        env,
        '/bin/sh',
        '-c',
        PROBE_SCRIPT,
        'probe',
        canary,
        ...leftovers,
        String(process.pid),
        String(supervisorStart),
        request.workspaceReady === undefined ? 'at-once' : 'on-go',
        expectedFilterCount(),
        // The canary through each view of the whole home; a view of a part of it, as a directory.
        ...views.map((view) => (view.reaches === 'whole' ? `whole:${join(view.path, basename(canary))}` : `part:${view.path}`)),
        ...homes.args,
      ],
      {
        cwd: request.workspace,
        timeoutMs: PROBE_TIMEOUT_MS,
        descriptors: descriptors.descriptors,
        ...(request.workspaceReady === undefined ? {} : { input: request.workspaceReady.then((ready) => (ready ? `${GATE_GO}\n` : undefined)) }),
      },
    );
    descriptors.close();
    const ahead = launchDescriptors === undefined ? undefined : openedAhead(launchDescriptors);
    if (ahead !== undefined) request.onLaunch?.({ bwrap, closer, env, args, sources, ahead });
    const [answer, version] = await Promise.all([probing, bwrapVersion(bwrap, request.rememberVersion)]);
    const probe = readProbeOutput(answer.stdout);
    const refusal = refusalOfProbe(answer, probe, profile);
    if (refusal !== undefined) {
      // A launch refused before it was spawned leaves no descriptor open behind it.
      ahead?.take()?.close();
      return refusal;
    }
    return {
      kind: 'established',
      boundary: {
        bwrap,
        closer,
        env,
        args,
        sources,
        ...(profile.checks === true ? { checks: true as const } : {}),
        record: {
          mechanism: 'bwrap',
          version,
          profileDigest: profileDigest(profile),
          profile,
          probe,
          // Yama read once per launch: whether the agent's processes can write the adapter's memory (adapter-reachable.ts).
          residuals: [...BWRAP_RESIDUALS, ...(profile.checks === true ? [] : adapterReachableResiduals(readPtraceScope()))],
        },
      },
    };
  } finally {
    await Promise.all([canary, ...homes.canaries, ...leftovers].map((path) => rm(path, { force: true })));
  }
}

type BoundaryRefusal = Extract<BoundaryEstablishment, { kind: 'refused' }>;

/**
 * How many seccomp filters a process in the sandbox is under: the supervisor's own (a container's
 * runtime may have given it one) and the keyring filter, so the probe tells the keyring filter from
 * one it merely inherited. `unknown` where the kernel does not count them (before Linux 5.9).
 */
function expectedFilterCount(): string {
  let status = '';
  try {
    status = readFileSync('/proc/self/status', 'utf8');
  } catch {
    // Unread, the count is not known: the probe then asks only that a filter is in force.
  }
  const own = /^Seccomp_filters:\s*(\d+)$/m.exec(status)?.[1];
  return own === undefined ? 'unknown' : String(Number(own) + 1);
}

/** The profile with each other view of the product home hidden too, role `product-home-view`; one inside a hidden path is hidden with it. */
function withProductHomeViews(profile: BoundaryProfile, views: readonly ProductHomeView[]): BoundaryProfile {
  const hidden = [...profile.hidden];
  for (const view of views) {
    // A home's tmpfs does not count: a path bound back over it could show the view again.
    if (!hidden.some((entry) => !isHome(entry) && isSameOrBelow(view.path, entry.path))) hidden.push({ path: view.path, role: 'product-home-view' });
  }
  return hidden.length === profile.hidden.length ? profile : { ...profile, hidden };
}

function isSameOrBelow(path: string, parent: string): boolean {
  return path === parent || path.startsWith(parent.endsWith('/') ? parent : `${parent}/`);
}

/**
 * A hidden path that is the workspace, or one of its parents, or of another path the child must
 * reach (a view of the home laid over the checkout's directory): hiding it would hide them too, and
 * leaving it would leave the home readable. Named, and the launch refused.
 */
function pathsThatCannotBeHidden(profile: BoundaryProfile, workspace: BoundaryPath): string | undefined {
  // The test-only bind is left out: it is laid over the home on purpose, for the probe to find (boundary-profile.ts).
  const reached = [workspace, ...profile.writable, ...profile.readOnly].filter((entry) => entry.role !== 'test-bind');
  // The homes are made to have what the child reaches bound back over them.
  for (const entry of profile.hidden.filter((entry) => !isHome(entry))) {
    const covered = reached.find((other) => isSameOrBelow(other.path, entry.path));
    if (covered !== undefined) {
      const what = entry.role === 'product-home' ? 'the product home' : 'a mount reaching the product home';
      const remedy =
        entry.role === 'product-home'
          ? 'move the product home (STATECRAFT_HOME) out of it'
          : `move the product home (STATECRAFT_HOME) or unmount ${entry.path}`;
      return `${entry.path} (${what}) cannot be hidden without hiding ${covered.path} (${covered.role}): ${remedy}`;
    }
  }
  return undefined;
}

/**
 * What the probe is given to check the homes (the `home-hidden` check): a canary planted in the
 * operator's home, which must not open inside, and one entry of each other home that must not be
 * there — an entry on the way to no path the child reaches, which would show through.
 */
function homeProbes(profile: BoundaryProfile, workspace: BoundaryPath, nonce: string): { canaries: string[]; args: string[] } {
  const reached = [workspace, ...profile.writable, ...profile.readOnly, ...profile.hidden.filter((entry) => !isHome(entry))];
  const canaries: string[] = [];
  const args: string[] = [];
  for (const home of profile.hidden.filter(isHome)) {
    if (home.role === 'operator-home') {
      const canary = join(home.path, `.statecraft-home-canary-${nonce}`);
      canaries.push(canary);
      args.push(`home:${canary}`);
      continue;
    }
    let names: string[];
    try {
      names = readdirSync(home.path);
    } catch {
      continue;
    }
    const shown = names.find((name) => !reached.some((entry) => isSameOrBelow(entry.path, join(home.path, name))));
    if (shown !== undefined) args.push(`gone:${join(home.path, shown)}`);
  }
  return { canaries, args };
}

/** `path`, or its nearest parent outside every home: the probe's write beside the workspace must try the root file system, not a home's tmpfs. */
function outsideEveryHome(path: string, profile: BoundaryProfile): string {
  let place = path;
  while (place !== dirname(place) && profile.hidden.some((entry) => isHome(entry) && isSameOrBelow(place, entry.path))) place = dirname(place);
  return place;
}

/** A refusal of the boundary, naming why and what to do next; nothing is spawned after it. */
function refusedBoundary(reason: BoundaryRefusalReason, why: string, probe: ProbeCheck[] | 'not-run' = 'not-run'): BoundaryRefusal {
  return {
    kind: 'refused',
    reason,
    probe,
    message: `the protected evidence boundary cannot be established: ${why}; ${reason === 'bwrap-missing' ? `${INSTALL}, ` : ''}${WAY_OUT}. Refused before spawn`,
  };
}

/** bwrap on the constructed PATH, and the bash and env that close inherited descriptors before the adapter runs. */
function findBoundaryTools(path: string | undefined): { kind: 'found'; bwrap: string; closer: string; env: string } | BoundaryRefusal {
  const bwrap = findExecutableOnPath('bwrap', path);
  if (bwrap === undefined) return refusedBoundary('bwrap-missing', `no bwrap on the constructed PATH (${path ?? 'not set'})`);
  const closer = findExecutableOnPath('bash', '/bin:/usr/bin');
  const env = findExecutableOnPath('env', '/usr/bin:/bin');
  if (closer === undefined || env === undefined)
    return refusedBoundary('probe-failed', 'no /bin/bash and /usr/bin/env to close inherited descriptors before the adapter runs (install bash and coreutils)');
  return { kind: 'found', bwrap, closer, env };
}

/** The probe's answer read as a refusal: bwrap printed nothing (it failed itself), or a check did not hold. */
function refusalOfProbe(
  answer: { stdout: string; stderr: string; error?: string | undefined },
  probe: ProbeCheck[],
  profile: BoundaryProfile,
): BoundaryRefusal | undefined {
  if (answer.stdout.trim() === '') {
    const failure = refusalOfBwrapFailure(answer.stderr, answer.error);
    return refusedBoundary(failure.reason, failure.why, probe);
  }
  const failed = probe.filter((check) => !check.held);
  if (failed.length === 0) return undefined;
  const testBind = profile.writable.some((entry) => entry.role === 'test-bind')
    ? ' (the profile holds a test-only writable bind: unset STATECRAFT_BOUNDARY_TEST_BIND)'
    : '';
  return refusedBoundary(
    'probe-failed',
    `the probe inside the sandbox found ${failed.map((check) => `${check.check}: ${check.detail}`).join('; ')}${testBind}`,
    probe,
  );
}

/** Whether the boundary can be established on this machine, for `doctor` and `env plan` (R12). */
export const BoundaryAvailabilitySchema = z.union([
  z.strictObject({ available: z.literal(true), bwrap: z.string().min(1), version: z.string().min(1) }),
  z.strictObject({ available: z.literal(false), reason: z.enum(['bwrap-missing', 'namespaces-refused', 'probe-failed']), message: z.string().min(1) }),
]);
export type BoundaryAvailability = z.infer<typeof BoundaryAvailabilitySchema>;

/**
 * Answers whether bwrap is on `path` and can make the profile's namespaces here, by running
 * `/bin/true` in a sandbox of the same shape (no product home involved: the full probe runs before
 * each launch). Nothing is written.
 */
export async function checkBoundaryAvailability(path: string | undefined): Promise<BoundaryAvailability> {
  const bwrap = findExecutableOnPath('bwrap', path);
  if (bwrap === undefined) return { available: false, reason: 'bwrap-missing', message: `no bwrap on PATH (${path ?? 'not set'}): ${INSTALL}, ${WAY_OUT}` };
  const filter = seccompFilterProgram();
  if ('refused' in filter) return { available: false, reason: 'probe-failed', message: `${filter.refused}; ${WAY_OUT}` };
  const args = profileArguments({ hidden: [], writable: [], readOnly: [] }, { path: '/', role: 'workspace' }, (entry) => entry.path);
  const descriptors = openLaunchDescriptors([]);
  const running = runQuietly(bwrap, [...args, '--', '/bin/true'], { timeoutMs: PROBE_TIMEOUT_MS, descriptors: descriptors.descriptors });
  descriptors.close();
  const [answer, version] = await Promise.all([running, bwrapVersion(bwrap, undefined)]);
  if (answer.code === 0) return { available: true, bwrap, version };
  const failure = refusalOfBwrapFailure(answer.stderr, answer.error);
  return { available: false, reason: failure.reason, message: `${failure.why}; ${WAY_OUT}` };
}

/**
 * A command inside the established sandbox (an adapter, a check), behind the descriptor closer,
 * which is told the environment's names (never its values) so it adds none of its own, and which
 * waits at its gate for the line `go` on stdin before it starts the command with the attempt's tag
 * exported (GATED_CLOSER_SCRIPT): bwrap is spawned with the environment less the tag. The closer
 * says it reached the gate on `readyDescriptor`, a pipe handed beyond the launch's descriptors.
 */
export function boundaryCommand(
  boundary: BoundaryLaunch,
  executable: string,
  args: readonly string[],
  environment: { names: readonly string[]; attemptTag: string; readyDescriptor: number },
): { file: string; args: string[] } {
  return {
    file: boundary.bwrap,
    args: [
      ...boundary.args,
      '--',
      boundary.closer,
      '-c',
      GATED_CLOSER_SCRIPT,
      'closer',
      String(environment.readyDescriptor),
      environment.attemptTag,
      environment.names.join(' '),
      boundary.env,
      executable,
      ...args,
    ],
  };
}

/** The containment the boundary gives (R7.3): bwrap's PID namespace, and what it cannot see. */
export function boundaryContainment(): Containment {
  return {
    mechanism: 'bwrap',
    blindSpots: [
      "a process started on the attempt's behalf by a service outside the sandbox (for example through a Unix socket to a daemon) is not a descendant and is not killed",
    ],
  };
}
