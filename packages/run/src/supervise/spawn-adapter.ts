import type { Readable } from 'node:stream';
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
export function spawnAdapter(options: SuperviseOptions, choice: ContainmentChoice): Contained {
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

/**
 * Whether a launch's sandbox was assembled: under the boundary, its closer says so at the gate
 * (GATED_CLOSER_SCRIPT); a sandbox that ended first never started its command, and `said` is what
 * bwrap wrote on the way out. Without the boundary nothing is assembled and it holds at once.
 */
export type Assembly = { assembled: true } | { assembled: false; said: string };

/** A started process, and whether its sandbox was assembled (known before its gate is opened). */
export interface Contained {
  child: ContainedChild;
  assembled: Promise<Assembly>;
}

/** Starts a process under the chosen containment, as spawnAdapter describes; checks start the same way (R13.3). */
export function spawnContained(target: ContainedProcess, choice: ContainmentChoice): Contained {
  const tagged = { ...target.environment, [ATTEMPT_TAG_VARIABLE]: target.attemptTag };
  if (!('boundary' in choice)) {
    const command =
      'launch' in choice
        ? { file: choice.launch[0]!, args: [...choice.launch.slice(1), '--', target.executable, ...target.args] }
        : { file: target.executable, args: [...target.args] };
    markAttemptSpawn(target.attemptTag);
    return {
      child: spawnWith(command.file, command.args, target.cwd, tagged, [target.stdin, 'pipe', 'pipe']),
      assembled: Promise.resolve({ assembled: true }),
    };
  }
  // Behind the boundary's gate the tag is exported by the closer as the command starts: a sandbox
  // still waiting carries none, and no sweep takes it for the attempt's (GATED_CLOSER_SCRIPT).
  const untagged: Record<string, string> = { ...tagged };
  delete untagged[ATTEMPT_TAG_VARIABLE];
  // Opened for this spawn, handed to bwrap as 3, 4, … and closed here once it is spawned; a bind source that moved throws (launch-descriptors.ts).
  const opened = choice.boundary.ahead?.take() ?? openLaunchDescriptors(choice.boundary.sources, choice.boundary);
  // The pipe the closer says it reached the gate on: the slot after the launch's descriptors.
  const readyDescriptor = 3 + opened.descriptors.length;
  const { file, args } = boundaryCommand(choice.boundary, target.executable, target.args, {
    names: Object.keys(tagged),
    attemptTag: target.attemptTag,
    readyDescriptor,
  });
  // Before the attempt's first process exists: its sweeps then read only pids handed out since.
  markAttemptSpawn(target.attemptTag);
  try {
    const child = spawnWith(file, args, target.cwd, untagged, ['pipe', 'pipe', 'pipe', ...opened.descriptors, 'pipe']);
    return { child, assembled: readAssembly(child, readyDescriptor) };
  } finally {
    opened.close();
  }
}

/** How much of what bwrap said on the way out is kept for the refusal: its own messages are one line. */
const SAID_BOUND = 2048;

/**
 * Waits for the closer's byte on the ready pipe, or for the sandbox to end without it: then both
 * the ready pipe and stderr have ended, and what stderr carried (bwrap's reason) is answered.
 */
function readAssembly(child: ContainedChild, readyDescriptor: number): Promise<Assembly> {
  const ready = child.stdio[readyDescriptor] as Readable | undefined;
  const stderr = child.stderr;
  if (ready === undefined || ready === null || stderr === null)
    return Promise.resolve({ assembled: false, said: 'the sandbox was started without its ready pipe' });
  return new Promise((resolve) => {
    let said = '';
    const keep = (chunk: Buffer) => {
      if (said.length < SAID_BOUND) said += chunk.toString('utf8', 0, SAID_BOUND - said.length);
    };
    stderr.on('data', keep);
    const stderrEnded = new Promise<void>((ended) => {
      stderr.once('close', () => ended());
      stderr.once('end', () => ended());
      stderr.once('error', () => ended());
    });
    let answered = false;
    const answer = (assembly: Assembly) => {
      if (answered) return;
      answered = true;
      stderr.off('data', keep);
      resolve(assembly);
    };
    ready.once('data', () => answer({ assembled: true }));
    const readyEnded = () => {
      void stderrEnded.then(() => answer({ assembled: false, said: said.trim() || 'the sandbox ended before its command could start' }));
    };
    ready.once('end', readyEnded);
    ready.once('close', readyEnded);
    ready.once('error', readyEnded);
    // Drained, so the pipe ends with the sandbox and nothing waits on it.
    ready.resume();
  });
}

function spawnWith(
  file: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string>,
  stdio: ['pipe' | 'ignore', 'pipe', 'pipe', ...(number | 'pipe')[]],
) {
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

type ContainedChild = ReturnType<typeof spawnWith>;
export type AdapterProcess = ContainedChild;

/**
 * Lets a launch behind the boundary's gate start its command (GATED_CLOSER_SCRIPT): the line `go`,
 * then what the command reads on stdin (the adapter's prompt; nothing for a check), and stdin is
 * closed. Never awaited (R7.4): a child that has already ended makes EPIPE, which is ignored.
 */
export function openGate(child: AdapterProcess, then = ''): void {
  writePrompt(child, `${GATE_GO}\n${then}`);
}
