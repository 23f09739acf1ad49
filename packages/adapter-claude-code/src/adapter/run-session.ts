import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { setTimeout as delay } from 'node:timers/promises';
import type { EventDraft } from './event-draft.js';
import type { EventWriter } from './event-writer.js';
import type { NativeStreamMapper } from './native-stream-mapper.js';
import { MAX_NATIVE_LINE_BYTES, nativeLines } from './native-lines.js';
import type { SettingsFile } from './settings-file.js';

/** How long claude may take to exit after its terminal result before it is asked to stop. */
const EXIT_GRACE_MS = 10_000;

export interface SessionPlan {
  executable: string;
  argv: string[];
  workspace: string;
  prompt: Buffer;
  settings: Extract<SettingsFile, { kind: 'written' }>;
  mapper: NativeStreamMapper;
  writer: EventWriter;
  /** claude's environment: the adapter's own, which the supervisor constructed (R5.1). */
  environment: NodeJS.ProcessEnv;
}

/**
 * Runs one claude session and translates its stream (R10.1, R10.2). The prompt goes on stdin,
 * never argv, no shell (R1.3); claude runs in the workspace (R7.1), with the adapter's own
 * (constructed) environment; its stderr is the adapter's stderr. Claude's exit status is read
 * nowhere (R7.6). Returns the adapter's exit status: 0 when a result was emitted.
 */
export async function runSession(plan: SessionPlan): Promise<number> {
  const child = spawn(plan.executable, plan.argv, { cwd: plan.workspace, env: plan.environment, stdio: ['pipe', 'pipe', 'inherit'] });
  const removeOnSignal = (signal: NodeJS.Signals, status: number) => () => {
    // Interrupted: stop claude and remove the settings file before going (R10.1). A SIGKILL of
    // the adapter cannot be caught; that file is the named residual.
    child.kill('SIGTERM');
    try {
      rmSync(plan.settings.directory, { recursive: true, force: true });
    } catch (error) {
      process.stderr.write(`statecraft-adapter-claude-code: settings cleanup failed after ${signal}: ${(error as Error).message}\n`);
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

  let ending: EventDraft[] | undefined;
  let lineNumber = 0;
  const lines = nativeLines(child.stdout);
  for await (const { bytes, lineBytes, oversize } of lines) {
    lineNumber += 1;
    if (oversize) {
      // Only the line's first bytes were kept; the adapter cannot stand behind any of it (R7.5).
      child.kill('SIGTERM');
      await cleanUp(plan);
      plan.writer.writeMalformed(lineNumber, `longer than ${MAX_NATIVE_LINE_BYTES} bytes (${lineBytes} read)`, bytes.toString('utf8'));
      return 1;
    }
    if (!isUtf8(bytes)) {
      // Passed on as the same defect, so the supervisor reports a read failure (R7.5).
      child.kill('SIGTERM');
      await cleanUp(plan);
      plan.writer.writeUnreadable(lineNumber, bytes);
      return 1;
    }
    const line = bytes.toString('utf8');
    const mapped = plan.mapper.mapLine(line);
    if (mapped.kind === 'events') mapped.events.forEach((event) => plan.writer.write(event));
    if (mapped.kind === 'malformed') {
      child.kill('SIGTERM');
      await cleanUp(plan);
      plan.writer.writeMalformed(lineNumber, mapped.reason, line);
      return 1;
    }
    if (mapped.kind === 'ending') {
      ending = mapped.events;
      break;
    }
  }
  // After the terminal result nothing is interpreted; the rest is drained so claude can exit.
  child.stdout.resume();
  if (ending !== undefined) {
    // The grace timer is cancelled once claude exits, or it would hold the adapter open.
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
  await cleanUp(plan);
  if (spawnError !== undefined && ending === undefined) {
    plan.writer.write({ type: 'error', code: 'provider-spawn-failed', message: `could not start ${plan.executable}: ${spawnError.message}` });
    return 1;
  }
  // Refusals before the result (R10.2). No result from claude: none is invented (R7.5 no-result).
  ending?.forEach((event) => plan.writer.write(event));
  return ending === undefined ? 1 : 0;
}

/** Removes the settings file; a failure is kept as evidence and changes no outcome (R10.1). */
async function cleanUp(plan: SessionPlan): Promise<void> {
  const removal = await plan.settings.remove();
  if (removal.kind === 'cleanup-failed') {
    process.stderr.write(`statecraft-adapter-claude-code: could not remove the settings file ${removal.path}: ${removal.message}\n`);
    if (plan.mapper.sawInit) {
      plan.writer.write({ type: 'progress', kind: 'notice', tools: [], detail: { settingsCleanup: 'failed', path: removal.path, message: removal.message } });
    }
  }
}
