import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { setTimeout as delay } from 'node:timers/promises';
import { MAX_NATIVE_LINE_BYTES, nativeLines } from '@statecraft/adapter';
import type { EventDraft, EventWriter } from '@statecraft/adapter';
import type { CodexHome } from './codex-home.js';
import { DenialChannel } from './denial-channel.js';
import type { NativeStreamMapper } from './native-stream-mapper.js';

/** How long codex may take to exit after its turn ended before it is asked to stop. */
const EXIT_GRACE_MS = 10_000;

export interface SessionPlan {
  executable: string;
  argv: string[];
  workspace: string;
  prompt: Buffer;
  home: Extract<CodexHome, { kind: 'made' }>;
  mapper: NativeStreamMapper;
  writer: EventWriter;
  /** codex's environment: the adapter's own, which the supervisor constructed (R5.1), plus CODEX_HOME. */
  environment: NodeJS.ProcessEnv;
}

/**
 * Runs one `codex exec --json` session and translates its stream. The prompt goes on stdin, never
 * argv, no shell (R1.3); codex runs in the workspace (R7.1); its stderr is the adapter's stderr
 * (kept, never parsed: a hook's block reaches it only as text, docs/facts.md item 22). The denial
 * channel is read after every native line and at the end, so each denial the hook recorded is a
 * refusal before the result (R14.2). Codex's exit status is read nowhere (R7.6).
 */
export async function runSession(plan: SessionPlan): Promise<number> {
  const channel = new DenialChannel(plan.home.channelPath);
  const child = spawn(plan.executable, plan.argv, { cwd: plan.workspace, env: plan.environment, stdio: ['pipe', 'pipe', 'inherit'] });
  const removeOnSignal = (signal: NodeJS.Signals, status: number) => () => {
    // Interrupted: stop codex and remove the private home before going (R10.1). A SIGKILL of the
    // adapter cannot be caught; that directory is the named residual.
    child.kill('SIGTERM');
    try {
      rmSync(plan.home.path, { recursive: true, force: true });
    } catch (error) {
      process.stderr.write(`statecraft-adapter-codex: CODEX_HOME cleanup failed after ${signal}: ${(error as Error).message}\n`);
    }
    process.exit(status);
  };
  const onTerm = removeOnSignal('SIGTERM', 143);
  const onInt = removeOnSignal('SIGINT', 130);
  process.once('SIGTERM', onTerm);
  process.once('SIGINT', onInt);

  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let spawnError: Error | undefined;
  child.once('error', (error) => (spawnError = error));
  // A provider that exits without reading its prompt must not crash the adapter (EPIPE).
  child.stdin.on('error', () => undefined);
  child.stdin.end(plan.prompt);

  const stop = async (): Promise<void> => {
    child.kill('SIGTERM');
    plan.mapper.denials(channel.drain()).forEach((event) => plan.writer.write(event));
    await cleanUp(plan);
  };

  let ending: EventDraft[] | undefined;
  let lineNumber = 0;
  for await (const { bytes, lineBytes, oversize } of nativeLines(child.stdout)) {
    lineNumber += 1;
    if (oversize) {
      // Only the line's first bytes were kept; the adapter cannot stand behind any of it (R7.5).
      await stop();
      plan.writer.writeMalformed(lineNumber, `longer than ${MAX_NATIVE_LINE_BYTES} bytes (${lineBytes} read)`, bytes.toString('utf8'));
      return 1;
    }
    if (!isUtf8(bytes)) {
      // Passed on as the same defect, so the supervisor reports a read failure (R7.5).
      await stop();
      plan.writer.writeUnreadable(lineNumber, bytes);
      return 1;
    }
    const line = bytes.toString('utf8');
    const mapped = plan.mapper.mapLine(line);
    if (mapped.kind === 'malformed') {
      await stop();
      plan.writer.writeMalformed(lineNumber, mapped.reason, line);
      return 1;
    }
    if (mapped.kind === 'events') mapped.events.forEach((event) => plan.writer.write(event));
    plan.mapper.denials(channel.drain()).forEach((event) => plan.writer.write(event));
    if (mapped.kind === 'ending') {
      ending = mapped.events;
      break;
    }
  }
  // After the turn's end nothing is interpreted; the rest is drained so codex can exit.
  child.stdout.resume();
  if (ending !== undefined) {
    // The grace timer is cancelled once codex exits, or it would hold the adapter open.
    const grace = new AbortController();
    const waited = await Promise.race([
      exited.then(() => 'exited' as const),
      delay(EXIT_GRACE_MS, 'waiting' as const, { signal: grace.signal }).catch(() => 'exited' as const),
    ]);
    grace.abort();
    if (waited === 'waiting') child.kill('SIGTERM');
  } else await closed;
  process.removeListener('SIGTERM', onTerm);
  process.removeListener('SIGINT', onInt);

  plan.mapper.finish().forEach((event) => plan.writer.write(event));
  // Denials recorded after the last native line, before the result (R14.2).
  plan.mapper.denials(channel.drain()).forEach((event) => plan.writer.write(event));
  await cleanUp(plan);
  if (spawnError !== undefined && ending === undefined) {
    plan.writer.write({ type: 'error', code: 'provider-spawn-failed', message: `could not start ${plan.executable}: ${spawnError.message}` });
    return 1;
  }
  // No turn.completed/turn.failed from codex: none is invented (R7.5 no-result).
  ending?.forEach((event) => plan.writer.write(event));
  return ending === undefined ? 1 : 0;
}

/** Removes the private CODEX_HOME; a failure is kept as evidence and changes no outcome (R10.1). */
async function cleanUp(plan: SessionPlan): Promise<void> {
  const removal = await plan.home.remove();
  if (removal.kind === 'cleanup-failed') {
    process.stderr.write(`statecraft-adapter-codex: could not remove the private CODEX_HOME ${removal.path}: ${removal.message}\n`);
    if (plan.mapper.sawInit) {
      plan.writer.write({ type: 'progress', kind: 'notice', tools: [], detail: { codexHomeCleanup: 'failed', path: removal.path, message: removal.message } });
    }
  }
}
