import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { EventSchema } from '@statecraft/adapter';
import type { KnownDigest, ProtocolEvent, Request } from '@statecraft/adapter';
import { claudeCodeAdapterPath, pinnedClaudePath } from '@statecraft/adapter-claude-code';
import { scratchDirectories } from '../../../../test/fixtures/scratch-directories.js';

/** A scratch place for one adapter run: workspace, HOME, a bin directory holding `claude`. */
export interface Sandbox {
  root: string;
  workspace: string;
  home: string;
  bin: string;
}

// Every sandbox of the importing test file is removed when the file is done (claude writes under HOME).
const sandboxes = scratchDirectories();

/** `claude` on the sandbox's PATH is a symlink to the pinned binary, as an operator's install would be. */
export async function makeSandbox(options: { withClaude: boolean } = { withClaude: true }): Promise<Sandbox> {
  const root = await sandboxes.make('statecraft-cc-test');
  const sandbox = { root, workspace: join(root, 'workspace'), home: join(root, 'home'), bin: join(root, 'bin') };
  await Promise.all([mkdir(sandbox.workspace), mkdir(sandbox.home), mkdir(sandbox.bin)]);
  if (options.withClaude) await symlink(pinnedClaudePath(), join(sandbox.bin, 'claude'));
  return sandbox;
}

/** The constructed environment's base: PATH (sandbox bin, node, system tools) and HOME; nothing inherited. */
export function baseEnvironment(sandbox: Sandbox): Record<string, string> {
  return { PATH: `${sandbox.bin}:${dirname(process.execPath)}:/usr/bin:/bin`, HOME: sandbox.home };
}

export const NO_LIMITS: Request['limits'] = { maxTurns: null, allow: [], deny: [], removeTools: [], hooks: [] };

export interface AdapterRunOptions {
  sandbox: Sandbox;
  environment: Record<string, string>;
  limits?: Partial<Request['limits']>;
  provider?: string | null;
  prompt?: string;
  /** What is actually sent on stdin, when a test wants it to differ from the request's prompt. */
  stdinPrompt?: string;
  /** Sent to the adapter once its init event has been read. */
  signalAfterInit?: NodeJS.Signals;
  /** Digests handed over in the request, as the supervisor hands over the provider's. */
  knownDigests?: KnownDigest[];
  /** Told the adapter's process id once it is spawned, e.g. to watch its memory. */
  onSpawn?: (pid: number) => void;
}

export interface AdapterRun {
  events: ProtocolEvent[];
  /** Lines of stdout that are not protocol events, verbatim. */
  otherLines: string[];
  stdout: string;
  /** stdout as bytes: the text form decodes leniently, these do not. */
  stdoutBytes: Buffer;
  stderr: string;
  exit: { code: number | null; signal: NodeJS.Signals | null };
}

/** Writes a request file for the sandbox's workspace, as the supervisor would (R1.2). */
export async function writeRequest(
  sandbox: Sandbox,
  prompt: string,
  limits: Request['limits'],
  provider: string | null,
  knownDigests?: KnownDigest[],
): Promise<string> {
  const request: Request = {
    protocol: 1,
    attempt: { runId: 'test-run', number: 1 },
    workspace: sandbox.workspace,
    baseRevision: '0000000000000000000000000000000000000000',
    capabilities: { required: [], preferred: ['structured-refusals', 'cost-report'] },
    limits,
    deadline: { milliseconds: 120_000, at: new Date(Date.now() + 120_000).toISOString() },
    prompt: { sha256: createHash('sha256').update(prompt).digest('hex'), bytes: Buffer.byteLength(prompt) },
    provider: provider === null ? null : { executable: provider },
    ...(knownDigests === undefined ? {} : { knownDigests }),
  };
  const path = join(sandbox.root, 'request.json');
  await writeFile(path, JSON.stringify(request));
  return path;
}

/**
 * Runs the bundled adapter as a real process (`run --request <file>`, prompt on stdin) with a
 * constructed environment, and reads its stdout as protocol events. No shell, nothing mocked.
 */
export async function runAdapter(options: AdapterRunOptions): Promise<AdapterRun> {
  const prompt = options.prompt ?? 'Do the scripted work.';
  const requestPath = await writeRequest(options.sandbox, prompt, { ...NO_LIMITS, ...options.limits }, options.provider ?? null, options.knownDigests);
  const child = spawn(claudeCodeAdapterPath(), ['run', '--request', requestPath], {
    cwd: options.sandbox.workspace,
    env: options.environment,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  if (child.pid !== undefined) options.onSpawn?.(child.pid);
  child.stdin.end(options.stdinPrompt ?? prompt);
  const chunks: Buffer[] = [];
  let stderr = '';
  let signalled = false;
  child.stdout.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    if (options.signalAfterInit !== undefined && !signalled && Buffer.concat(chunks).includes('"type":"init"') && Buffer.concat(chunks).includes('\n')) {
      signalled = true;
      child.kill(options.signalAfterInit);
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exit = await new Promise<AdapterRun['exit']>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  const stdoutBytes = Buffer.concat(chunks);
  const stdout = stdoutBytes.toString('utf8');
  const events: ProtocolEvent[] = [];
  const otherLines: string[] = [];
  for (const line of stdout.split('\n').filter((l) => l !== '')) {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      otherLines.push(line);
      continue;
    }
    const parsed = EventSchema.safeParse(json);
    if (parsed.success) events.push(parsed.data);
    else otherLines.push(line);
  }
  return { events, otherLines, stdout, stdoutBytes, stderr, exit };
}

export function eventsOfType<T extends ProtocolEvent['type']>(run: AdapterRun, type: T): Array<Extract<ProtocolEvent, { type: T }>> {
  return run.events.filter((event): event is Extract<ProtocolEvent, { type: T }> => event.type === type);
}
