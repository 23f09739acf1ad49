import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { rmSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import type { Readable, Writable } from 'node:stream';
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

type ClaudeChild = ChildProcessByStdio<Writable, Readable, null>;

/** A started claude: the process, when it exited and closed its pipes, and why it could not start. */
interface StartedClaude {
  child: ClaudeChild;
  exited: Promise<void>;
  closed: Promise<void>;
  spawnError(): Error | undefined;
}

/** How the translation of claude's stdout ended. */
type Translation = { kind: 'ending'; events: EventDraft[] } | { kind: 'defect'; write: () => void } | { kind: 'no-result' };

/**
 * Runs one claude session and translates its stream (R10.1, R10.2). The prompt goes on stdin,
 * never argv, no shell (R1.3); claude runs in the workspace (R7.1), with the adapter's own
 * (constructed) environment; its stderr is the adapter's stderr. Claude's exit status is read
 * nowhere (R7.6). Returns the adapter's exit status: 0 when a result was emitted.
 */
export async function runSession(plan: SessionPlan): Promise<number> {
  const started = startClaude(plan);
  const detachSignals = removeSettingsOnSignal(started.child, plan);
  const translation = await translateStream(started.child, plan);
  if (translation.kind === 'defect') {
    // The adapter cannot stand behind the rest (R7.5): claude is stopped, the defect passed on.
    started.child.kill('SIGTERM');
    detachSignals();
    await cleanUp(plan);
    translation.write();
    return 1;
  }
  // After the terminal result nothing is interpreted; the rest is drained so claude can exit.
  started.child.stdout.resume();
  if (translation.kind === 'ending') await awaitExitWithGrace(started);
  else await started.closed;
  detachSignals();
  return finishSession(plan, started, translation.kind === 'ending' ? translation.events : undefined);
}

/** Spawns claude with the prompt on stdin; a provider that never reads it must not crash the adapter (EPIPE). */
function startClaude(plan: SessionPlan): StartedClaude {
  const child = spawn(plan.executable, plan.argv, { cwd: plan.workspace, env: plan.environment, stdio: ['pipe', 'pipe', 'inherit'] });
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let spawnError: Error | undefined;
  child.once('error', (error) => (spawnError = error));
  child.stdin.on('error', () => undefined);
  child.stdin.end(plan.prompt);
  return { child, closed, exited, spawnError: () => spawnError };
}

/**
 * Interrupted: stop claude and remove the settings file before going (R10.1). A SIGKILL of the
 * adapter cannot be caught; that file is the named residual. Returns the detach step.
 */
function removeSettingsOnSignal(child: ClaudeChild, plan: SessionPlan): () => void {
  const removeOnSignal = (signal: NodeJS.Signals, status: number) => () => {
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
  return () => {
    process.removeListener('SIGTERM', onTerm);
    process.removeListener('SIGINT', onInt);
  };
}

/** Maps claude's stdout line by line until its terminal result, a defect, or its end. */
async function translateStream(child: ClaudeChild, plan: SessionPlan): Promise<Translation> {
  let lineNumber = 0;
  for await (const { bytes, lineBytes, oversize } of nativeLines(child.stdout)) {
    lineNumber += 1;
    const at = lineNumber;
    if (oversize) {
      // Only the line's first bytes were kept; the adapter cannot stand behind any of it (R7.5).
      return {
        kind: 'defect',
        write: () => plan.writer.writeMalformed(at, `longer than ${MAX_NATIVE_LINE_BYTES} bytes (${lineBytes} read)`, bytes.toString('utf8')),
      };
    }
    // Passed on as the same defect, so the supervisor reports a read failure (R7.5).
    if (!isUtf8(bytes)) return { kind: 'defect', write: () => plan.writer.writeUnreadable(at, bytes) };
    const line = bytes.toString('utf8');
    const mapped = plan.mapper.mapLine(line);
    if (mapped.kind === 'events') mapped.events.forEach((event) => plan.writer.write(event));
    if (mapped.kind === 'malformed') return { kind: 'defect', write: () => plan.writer.writeMalformed(at, mapped.reason, line) };
    if (mapped.kind === 'ending') return { kind: 'ending', events: mapped.events };
  }
  return { kind: 'no-result' };
}

/** Waits for claude to exit after its result; the grace timer is cancelled once it does, or it would hold the adapter open. */
async function awaitExitWithGrace(started: StartedClaude): Promise<void> {
  const grace = new AbortController();
  const waited = await Promise.race([
    started.exited.then(() => 'exited' as const),
    delay(EXIT_GRACE_MS, 'waiting' as const, { signal: grace.signal }).catch(() => 'exited' as const),
  ]);
  grace.abort();
  if (waited === 'waiting') started.child.kill('SIGTERM');
}

/**
 * The session's last events: what the mapper still holds, a spawn failure, then the refusals
 * before the result (R10.2). No result from claude: none is invented (R7.5 no-result).
 */
async function finishSession(plan: SessionPlan, started: StartedClaude, ending: EventDraft[] | undefined): Promise<number> {
  plan.mapper.finish().forEach((event) => plan.writer.write(event));
  await cleanUp(plan);
  const spawnError = started.spawnError();
  if (spawnError !== undefined && ending === undefined) {
    plan.writer.write({ type: 'error', code: 'provider-spawn-failed', message: `could not start ${plan.executable}: ${spawnError.message}` });
    return 1;
  }
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
