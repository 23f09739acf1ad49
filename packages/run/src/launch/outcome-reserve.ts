import { unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Room kept for the end of an attempt. The one thing that grows while an attempt runs is its
 * kept stream; when it fills the product home, the result and the outcome still need a few
 * kilobytes (R8.4). So before the intent, each attempt writes this many bytes into its own
 * directory, and releases them just before the result and the outcome are written. Not
 * fsync'd: the space is charged when the bytes are written, and freed when the file is removed.
 */
const OUTCOME_RESERVE_BYTES = 64 * 1024;

/** Where one attempt keeps its reserve: in its own directory, beside the files it protects. */
export function outcomeReservePath(attemptDirectory: string): string {
  return join(attemptDirectory, 'outcome-reserve');
}

/** Writes the reserve; a home that cannot hold it cannot hold an attempt, and the intent fails naming it. */
export async function keepOutcomeReserve(path: string): Promise<void> {
  await writeFile(path, Buffer.alloc(OUTCOME_RESERVE_BYTES), { mode: 0o600 });
}

/** Frees the reserve; a reserve already gone frees nothing and fails nothing. */
export async function releaseOutcomeReserve(path: string): Promise<void> {
  await unlink(path).catch(() => undefined);
}
