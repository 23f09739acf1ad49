import { execa } from 'execa';
import { markAttemptSpawn } from '@statecraft/adapter';
import { GATE_GO } from '@statecraft/environment';
import { boundaryCommand } from '@statecraft/environment';
import { openLaunchDescriptors } from '@statecraft/environment';
import { writePrompt } from './watch-child.js';
import type { ContainmentChoice } from '@statecraft/environment';
import { ATTEMPT_TAG_VARIABLE } from '@statecraft/adapter';
import type { SuperviseOptions } from './options.js';

/**
 * Starts the adapter (R1.3, R5.1, R7.1): no shell; the constructed environment passed whole
 * (`extendEnv: false`) plus the attempt tag every descendant inherits; the workspace as cwd;
 * three pipes. Under a PID namespace the adapter becomes the namespace's first process, behind
 * `unshare`; in the fallback it leads its own process group, so the group can be killed as one.
 * Under every mechanism what is spawned leads a session of its own (`detached`), out of the
 * supervisor's process group.
 */
export function spawnAdapter(options: SuperviseOptions, choice: ContainmentChoice) {
  return spawnContained(
    {
      executable: options.executable,
      args: options.args,
      cwd: options.workspace,
      environment: options.environment,
      attemptTag: options.attemptTag,
      stdin: 'pipe',
    },
    choice,
  );
}

/**
 * One process to start contained: the adapter (its prompt on a stdin pipe) or an acceptance check
 * (stdin closed). Under the boundary either waits at its closer's gate, on a stdin pipe, until
 * `openGate` (or until it is killed): what is started here is its sandbox.
 */
export interface ContainedProcess {
  executable: string;
  args: readonly string[];
  cwd: string;
  environment: Readonly<Record<string, string>>;
  attemptTag: string;
  stdin: 'pipe' | 'ignore';
}

/** Starts a process under the chosen containment, as spawnAdapter describes; checks start the same way (R13.3). */
export function spawnContained(target: ContainedProcess, choice: ContainmentChoice) {
  const tagged = { ...target.environment, [ATTEMPT_TAG_VARIABLE]: target.attemptTag };
  // Behind the boundary's gate the tag is exported by the closer as the command starts: a sandbox
  // still waiting carries none, and no sweep takes it for the attempt's (GATED_CLOSER_SCRIPT).
  const untagged: Record<string, string> = { ...tagged };
  delete untagged[ATTEMPT_TAG_VARIABLE];
  const command =
    'boundary' in choice
      ? boundaryCommand(choice.boundary, target.executable, target.args, { names: Object.keys(tagged), attemptTag: target.attemptTag })
      : 'launch' in choice
        ? { file: choice.launch[0]!, args: [...choice.launch.slice(1), '--', target.executable, ...target.args] }
        : { file: target.executable, args: [...target.args] };
  const { file, args } = command;
  // Opened for this spawn, handed to bwrap as 3, 4, … and closed here once it is spawned; a bind source that moved throws (launch-descriptors.ts).
  const opened = 'boundary' in choice ? (choice.boundary.ahead?.take() ?? openLaunchDescriptors(choice.boundary.sources)) : undefined;
  // Before the attempt's first process exists: its sweeps then read only pids handed out since.
  markAttemptSpawn(target.attemptTag);
  try {
    return spawnWith(file, args, target.cwd, 'boundary' in choice ? untagged : tagged, [
      'boundary' in choice ? 'pipe' : target.stdin,
      'pipe',
      'pipe',
      ...(opened?.descriptors ?? []),
    ]);
  } finally {
    opened?.close();
  }
}

function spawnWith(file: string, args: readonly string[], cwd: string, env: Record<string, string>, stdio: ['pipe' | 'ignore', 'pipe', 'pipe', ...number[]]) {
  return execa(file, args, {
    cwd,
    env,
    extendEnv: false,
    shell: false,
    // Numbers beyond stdio are inherited descriptors, whatever their value (execa's types list 3 to 9 only).
    stdio: stdio as unknown as readonly ['pipe' | 'ignore', 'pipe', 'pipe', ...3[]],
    buffer: false,
    reject: false,
    encoding: 'buffer',
    // A session (and process group) of its own under every mechanism: in the supervisor's group,
    // `kill -INT 0` from the adapter reached the supervisor and read as the operator's cancel (only
    // an operator can produce it, R8.1), and `kill -STOP 0` froze it past the deadline (R7.2). The
    // operator's Ctrl-C still reaches the supervisor, which cancels and kills the tree itself.
    detached: true,
    // The supervisor kills the tree itself; execa's own kill-on-exit only reaches the direct child.
    cleanup: true,
  });
}

export type AdapterProcess = ReturnType<typeof spawnAdapter>;

/**
 * Lets a launch behind the boundary's gate start its command (GATED_CLOSER_SCRIPT): the line `go`,
 * then what the command reads on stdin (the adapter's prompt; nothing for a check), and stdin is
 * closed. Never awaited (R7.4): a child that has already ended makes EPIPE, which is ignored.
 */
export function openGate(child: AdapterProcess, then = ''): void {
  writePrompt(child, `${GATE_GO}\n${then}`);
}
