import { spawn } from 'node:child_process';
import { awaitExitWithGrace, providerLines, removeOnInterrupt, startProvider, writeEnding } from '@statecraft/adapter';
import type { ProviderChild, ProviderInvocation, StartedProvider } from '@statecraft/adapter';
import type { EventDraft } from './event-draft.js';
import type { EventWriter } from './event-writer.js';
import type { NativeStreamMapper } from './native-stream-mapper.js';
import type { SettingsFile } from './settings-file.js';

/** How long claude may take to exit after its terminal result before it is asked to stop. */
const EXIT_GRACE_MS = 10_000;

/** `environment`: claude's, the adapter's own, which the supervisor constructed (R5.1). */
export interface SessionPlan extends ProviderInvocation {
  settings: Extract<SettingsFile, { kind: 'written' }>;
  mapper: NativeStreamMapper;
  writer: EventWriter;
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
  const started = startProvider(plan, spawn);
  // Interrupted: claude is stopped and the settings file removed before going (R10.1).
  const detachSignals = removeOnInterrupt(started.child, plan.settings.directory, 'statecraft-adapter-claude-code: settings');
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
  if (translation.kind === 'ending') await awaitExitWithGrace(started, EXIT_GRACE_MS);
  else await started.closed;
  detachSignals();
  return finishSession(plan, started, translation.kind === 'ending' ? translation.events : undefined);
}

/** Maps claude's stdout line by line until its terminal result, a defect, or its end. */
async function translateStream(child: ProviderChild, plan: SessionPlan): Promise<Translation> {
  for await (const read of providerLines(child.stdout)) {
    if (read.kind === 'defect') return { kind: 'defect', write: () => read.write(plan.writer) };
    const { lineNumber, line } = read;
    const mapped = plan.mapper.mapLine(line);
    if (mapped.kind === 'events') mapped.events.forEach((event) => plan.writer.write(event));
    if (mapped.kind === 'malformed') return { kind: 'defect', write: () => plan.writer.writeMalformed(lineNumber, mapped.reason, line) };
    if (mapped.kind === 'ending') return { kind: 'ending', events: mapped.events };
  }
  return { kind: 'no-result' };
}

/**
 * The session's last events: what the mapper still holds, a spawn failure, then the refusals
 * before the result (R10.2). No result from claude: none is invented (R7.5 no-result).
 */
async function finishSession(plan: SessionPlan, started: StartedProvider, ending: EventDraft[] | undefined): Promise<number> {
  plan.mapper.finish().forEach((event) => plan.writer.write(event));
  await cleanUp(plan);
  return writeEnding(plan.writer, started, plan.executable, ending);
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
