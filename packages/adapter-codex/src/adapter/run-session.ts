import { spawn } from 'node:child_process';
import { awaitExitWithGrace, providerLines, removeOnInterrupt, startProvider, writeEnding } from '@statecraft/adapter';
import type { EventDraft, EventWriter, ProviderInvocation } from '@statecraft/adapter';
import type { CodexHome } from './codex-home.js';
import { acknowledgeChannel } from './denial-acknowledgement.js';
import { DenialChannel } from './denial-channel.js';
import type { ChannelEntry } from './denial-record.js';
import { watchDenialChannel } from './denial-watch.js';
import type { NativeStreamMapper } from './native-stream-mapper.js';

/** How long codex may take to exit after its turn ended before it is asked to stop. */
const EXIT_GRACE_MS = 10_000;

/** `environment`: codex's, the adapter's own, which the supervisor constructed (R5.1), plus CODEX_HOME and Codex's own TMPDIR. */
export interface SessionPlan extends ProviderInvocation {
  home: Extract<CodexHome, { kind: 'made' }>;
  mapper: NativeStreamMapper;
  writer: EventWriter;
}

/**
 * Runs one `codex exec --json` session and translates its stream. The prompt goes on stdin, never
 * argv, no shell (R1.3); codex runs in the workspace (R7.1); its stderr is the adapter's stderr
 * (kept, never parsed: a hook's block reaches it only as text, docs/facts.md item 22). The denial
 * channel is watched on its own from before codex starts, so each denial the hook recorded is a
 * refusal in the supervisor's stream as soon as it is recorded, even when no native line follows
 * and the session is killed (R8.2, R14.2); the hook answers Codex only once told so
 * (denial-acknowledgement.ts). It is read once more at the end, before the result.
 * Codex's exit status is read nowhere (R7.6).
 */
export async function runSession(plan: SessionPlan): Promise<number> {
  const channel = new DenialChannel(plan.home.channelPath);
  let acknowledged = 0;
  const writeDenials = (entries: readonly ChannelEntry[]): void => {
    plan.mapper.denials(entries).forEach((event) => plan.writer.write(event));
    // Held until the init, a refusal is not yet written out: the hook is told only once it is.
    if (plan.mapper.sawInit && channel.bytesRead > acknowledged) {
      acknowledged = channel.bytesRead;
      acknowledgeChannel(channel.path, acknowledged);
    }
  };
  const readChannel = (): void => writeDenials(channel.drain());
  const stopWatching = watchDenialChannel(channel, writeDenials);
  const started = startProvider(plan, spawn);
  const { child } = started;
  // Interrupted: the channel is read a last time (registered first, so before the removal), then
  // codex is stopped and the private directory removed before going (R10.1).
  const detachLastRead = readOnInterrupt(readChannel);
  const detachSignals = removeOnInterrupt(child, plan.home.directory, 'statecraft-adapter-codex: private CODEX_HOME');

  const stop = async (): Promise<void> => {
    child.kill('SIGTERM');
    stopWatching();
    readChannel();
    await cleanUp(plan);
  };

  let ending: EventDraft[] | undefined;
  for await (const read of providerLines(child.stdout)) {
    if (read.kind === 'defect') {
      await stop();
      read.write(plan.writer);
      return 1;
    }
    const { lineNumber, line } = read;
    const mapped = plan.mapper.mapLine(line);
    if (mapped.kind === 'malformed') {
      await stop();
      plan.writer.writeMalformed(lineNumber, mapped.reason, line);
      return 1;
    }
    if (mapped.kind === 'events') mapped.events.forEach((event) => plan.writer.write(event));
    readChannel();
    if (mapped.kind === 'ending') {
      ending = mapped.events;
      break;
    }
  }
  // After the turn's end nothing is interpreted; the rest is drained so codex can exit.
  child.stdout.resume();
  if (ending !== undefined) await awaitExitWithGrace(started, EXIT_GRACE_MS);
  else await started.closed;
  detachSignals();
  detachLastRead();
  stopWatching();

  plan.mapper.finish().forEach((event) => plan.writer.write(event));
  // Denials recorded since the watch last read, before the result (R14.2).
  readChannel();
  await cleanUp(plan);
  // No turn.completed/turn.failed from codex: none is invented (R7.5 no-result).
  return writeEnding(plan.writer, started, plan.executable, ending);
}

/** Runs `read` on SIGTERM or SIGINT, before the kit's removal on interrupt if registered before it. Returns the detach step. */
function readOnInterrupt(read: () => void): () => void {
  process.once('SIGTERM', read);
  process.once('SIGINT', read);
  return () => {
    process.removeListener('SIGTERM', read);
    process.removeListener('SIGINT', read);
  };
}

/** Removes the private directory (CODEX_HOME with it); a failure is kept as evidence and changes no outcome (R10.1). */
async function cleanUp(plan: SessionPlan): Promise<void> {
  const removal = await plan.home.remove();
  if (removal.kind === 'cleanup-failed') {
    process.stderr.write(`statecraft-adapter-codex: could not remove the private CODEX_HOME's directory ${removal.path}: ${removal.message}\n`);
    if (plan.mapper.sawInit) {
      plan.writer.write({ type: 'progress', kind: 'notice', tools: [], detail: { codexHomeCleanup: 'failed', path: removal.path, message: removal.message } });
    }
  }
}
