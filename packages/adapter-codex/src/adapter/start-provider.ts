import { spawn } from 'node:child_process';
import type { ProviderInvocation, StartedProvider } from '@statecraft/adapter';

/**
 * Spawns the provider in the workspace (R7.1) with the prompt on stdin, never argv, no shell
 * (R1.3); its stderr is the adapter's stderr. A provider that never reads its prompt must not
 * crash the adapter (EPIPE).
 */
export function startProvider(invocation: ProviderInvocation): StartedProvider {
  const child = spawn(invocation.executable, invocation.argv, { cwd: invocation.workspace, env: invocation.environment, stdio: ['pipe', 'pipe', 'inherit'] });
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let spawnError: Error | undefined;
  child.once('error', (error) => (spawnError = error));
  child.stdin.on('error', () => undefined);
  child.stdin.end(invocation.prompt);
  return { child, closed, exited, spawnError: () => spawnError };
}
