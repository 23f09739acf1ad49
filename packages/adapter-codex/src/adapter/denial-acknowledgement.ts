import { closeSync, fstatSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';

/**
 * The channel's second file: how many bytes of the channel the adapter has written out as refusals.
 * The hook answers Codex only once its record is covered, so a denial the model learns of is
 * already a refusal in the supervisor's stream, whenever the attempt is killed after it (R14.2).
 */
function acknowledgementPath(channelPath: string): string {
  return `${channelPath}.written`;
}

/**
 * The adapter's side: the channel is written out up to `bytes`. Replaced whole (rename), so the hook
 * never reads half of it. A failure is not the session's end: the hook then waits its time out.
 */
export function acknowledgeChannel(channelPath: string, bytes: number): void {
  const path = acknowledgementPath(channelPath);
  try {
    writeFileSync(`${path}.next`, String(bytes), { mode: 0o600 });
    renameSync(`${path}.next`, path);
  } catch {
    // The refusal is written out all the same; only the hook's answer is delayed.
  }
}

/** The hook's side: appends one record and returns where the channel then ended (at least the end of this record). */
export function appendToChannel(channelPath: string, line: string): number {
  const descriptor = openSync(channelPath, 'a', 0o600);
  try {
    writeSync(descriptor, line);
    return fstatSync(descriptor).size;
  } finally {
    closeSync(descriptor);
  }
}

function acknowledgedBytes(channelPath: string): number {
  try {
    return Number(readFileSync(acknowledgementPath(channelPath), 'utf8'));
  } catch {
    return 0;
  }
}

/** How often and how long the hook looks for the adapter's acknowledgement before blocking anyway. */
const POLL_MS = 5;
const WAIT_MS = 3_000;

/**
 * The hook's side: waits, briefly, until the adapter has written the channel out up to `bytes`.
 * Whether or not it comes, the call stays blocked; without an adapter reading (a recording script,
 * an adapter already gone) this only delays the answer. Returns whether it came.
 */
export function awaitAcknowledgement(channelPath: string, bytes: number, waitMs = WAIT_MS): boolean {
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0; waited <= waitMs; waited += POLL_MS) {
    if (acknowledgedBytes(channelPath) >= bytes) return true;
    Atomics.wait(sleeper, 0, 0, POLL_MS);
  }
  return false;
}
