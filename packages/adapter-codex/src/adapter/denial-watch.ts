import { watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { DenialChannel } from './denial-channel.js';
import type { ChannelEntry } from './denial-record.js';

/** The backstop: how often the channel is read should a change notice be missed or the watch not set up. */
const POLL_MS = 100;

/**
 * Hands on each denial as soon as the hook has appended it to the channel, on its own, whatever
 * codex's stdout does: Codex writes nothing to its stream for a blocked call (docs/facts.md item
 * 22), so a session that stops talking after a denial would hold the record unread until the
 * deadline's SIGKILL, and the refusal would be lost (R8.2, R14.2). The channel's directory is
 * watched (the file does not exist before the first denial) and read on a short timer as well;
 * reading is incremental, so each denial is handed on once. Neither keeps the adapter alive.
 * Returns the stop step.
 */
export function watchDenialChannel(channel: DenialChannel, handOn: (entries: ChannelEntry[]) => void): () => void {
  const readNow = (): void => {
    const entries = channel.drain();
    if (entries.length > 0) handOn(entries);
  };
  const watcher = watchDirectoryFor(channel.path, readNow);
  const poll = setInterval(readNow, POLL_MS);
  poll.unref();
  return () => {
    clearInterval(poll);
    watcher?.close();
  };
}

/** A change notice for the one file; `undefined` when the directory cannot be watched (the timer remains). */
function watchDirectoryFor(path: string, onChange: () => void): FSWatcher | undefined {
  const name = basename(path);
  try {
    const watcher = watch(dirname(path), { persistent: false }, (_event, changed) => {
      if (changed === name) onChange();
    });
    watcher.on('error', () => watcher.close());
    return watcher;
  } catch {
    return undefined;
  }
}
