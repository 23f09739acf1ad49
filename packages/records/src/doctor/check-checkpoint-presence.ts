import { lstat } from 'node:fs/promises';
import { checkpointPathOf } from '../chain/chain-checkpoint.js';
import type { Finding } from './examine-product-home.js';

/**
 * A chain with records and no checkpoint beside it, or something other than a regular file where
 * the checkpoint goes. Every append writes the checkpoint once its record is fsync'd
 * (append-record.ts), by renaming a regular file into place, and nothing statecraft does removes
 * it; without it, records cut from the chain's end leave no trace (`chain-cut` needs it), and the
 * next `run` appends after the cut and writes a checkpoint that vouches for it. The states that
 * legitimately have none are named in the finding, not excused: a chain last appended to before
 * checkpoints existed, and a first append whose checkpoint could not be written (a
 * full disk) or was lost to a crash (it is not fsync'd). A missing or unreadable checkpoint is
 * still only a miss to `run` (chain-checkpoint.ts); this is what `doctor` says of it.
 */
export async function checkCheckpointPresence(chainFile: string, records: number): Promise<Finding[]> {
  if (records === 0) return [];
  const path = checkpointPathOf(chainFile);
  const found = await lstat(path).then(
    (info) => (info.isFile() ? 'regular' : kindOf(info)),
    // A checkpoint that cannot be looked at (no permission) is `run`'s miss, not judged here.
    (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? 'missing' : 'not-judged'),
  );
  if (found === 'regular' || found === 'not-judged') return [];
  const what =
    found === 'missing'
      ? `no checkpoint beside a chain of ${records} record${records === 1 ? '' : 's'}: every append writes one, so it was removed (or the chain was last appended to by a statecraft that wrote none, or its first append's checkpoint was never written)`
      : `the checkpoint is ${found}, not the regular file every append writes: something other than statecraft put it there`;
  return [
    {
      kind: 'checkpoint-missing',
      path,
      message: `${path}: ${what}; records cut from the chain's end can no longer be told, and the next run appends without seeing them gone; doctor repairs nothing`,
    },
  ];
}

function kindOf(info: { isDirectory: () => boolean; isFIFO: () => boolean; isSymbolicLink: () => boolean; isSocket: () => boolean }): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a FIFO';
  if (info.isSymbolicLink()) return 'a symbolic link';
  if (info.isSocket()) return 'a socket';
  return 'a device';
}
