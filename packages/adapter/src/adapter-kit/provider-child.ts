import { rmSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import type { EventDraft } from './event-draft.js';
import type { EventWriter } from './event-writer.js';

/** What the kit needs of the provider's process, which the adapter spawns (the kit spawns nothing). */
export interface ProviderChild {
  stdout: Readable;
  kill(signal?: NodeJS.Signals | number): boolean;
}

/** A started provider: the process, when it exited and closed its pipes, and why it could not start. */
export interface StartedProvider {
  child: ProviderChild;
  exited: Promise<void>;
  closed: Promise<void>;
  spawnError(): Error | undefined;
}

export interface ProviderInvocation {
  executable: string;
  argv: string[];
  workspace: string;
  /** The provider's environment: the adapter's own, which the supervisor constructed (R5.1), plus what the adapter adds. */
  environment: NodeJS.ProcessEnv;
  prompt: Buffer;
}

/** The provider's process as the adapter's spawn returns it: what `startProvider` watches. */
interface SpawnedProvider extends ProviderChild {
  stdin: Writable;
  once(event: 'close' | 'exit', listener: () => void): unknown;
  once(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * Node's `spawn` (node:child_process), handed in by the adapter: the kit spawns nothing itself, so
 * an adapter author reads in the adapter which process it starts.
 */
export type SpawnProvider = (
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; stdio: ['pipe', 'pipe', 'inherit'] },
) => SpawnedProvider;

/**
 * Starts the provider with `spawn` in the workspace (R7.1) with the prompt on stdin, never argv,
 * no shell (R1.3); its stderr is the adapter's stderr. A provider that never reads its prompt must
 * not crash the adapter (EPIPE).
 */
export function startProvider(invocation: ProviderInvocation, spawn: SpawnProvider): StartedProvider {
  const child = spawn(invocation.executable, invocation.argv, { cwd: invocation.workspace, env: invocation.environment, stdio: ['pipe', 'pipe', 'inherit'] });
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let spawnError: Error | undefined;
  child.once('error', (error) => (spawnError = error));
  child.stdin.on('error', () => undefined);
  child.stdin.end(invocation.prompt);
  return { child, closed, exited, spawnError: () => spawnError };
}

/** Waits for the provider to exit after its ending; the grace timer is cancelled once it does, or it would hold the adapter open. */
export async function awaitExitWithGrace(started: StartedProvider, graceMs: number): Promise<void> {
  const grace = new AbortController();
  const waited = await Promise.race([
    started.exited.then(() => 'exited' as const),
    delay(graceMs, 'waiting' as const, { signal: grace.signal }).catch(() => 'exited' as const),
  ]);
  grace.abort();
  if (waited === 'waiting') started.child.kill('SIGTERM');
}

/**
 * Interrupted (SIGTERM, SIGINT): stop the provider and remove the adapter's private file or
 * directory before going (R10.1). A SIGKILL of the adapter cannot be caught; that path is the named
 * residual. `label` starts the line written to stderr when the removal fails. Returns the detach step.
 */
export function removeOnInterrupt(child: ProviderChild, path: string, label: string): () => void {
  const removeOnSignal = (signal: NodeJS.Signals, status: number) => () => {
    child.kill('SIGTERM');
    try {
      rmSync(path, { recursive: true, force: true });
    } catch (error) {
      process.stderr.write(`${label} cleanup failed after ${signal}: ${(error as Error).message}\n`);
    }
    process.exit(status);
  };
  const onTerm = removeOnSignal('SIGTERM', 143);
  const onInt = removeOnSignal('SIGINT', 130);
  process.once('SIGTERM', onTerm);
  process.once('SIGINT', onInt);
  return () => {
    process.removeListener('SIGTERM', onTerm);
    process.removeListener('SIGINT', onInt);
  };
}

/**
 * The session's last word once the provider is gone: a spawn failure when there was no ending,
 * else the ending's events (refusals, then the result). No ending: none is invented (R7.5
 * no-result). Returns the adapter's exit status: 0 when a result was emitted.
 */
export function writeEnding(writer: EventWriter, started: StartedProvider, executable: string, ending: EventDraft[] | undefined): number {
  const spawnError = started.spawnError();
  if (spawnError !== undefined && ending === undefined) {
    writer.write({ type: 'error', code: 'provider-spawn-failed', message: `could not start ${executable}: ${spawnError.message}` });
    return 1;
  }
  ending?.forEach((event) => writer.write(event));
  return ending === undefined ? 1 : 0;
}
