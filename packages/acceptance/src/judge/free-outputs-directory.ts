import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { acceptanceDirectoryName } from '@statecraft/records';

/**
 * The directory this judgement's check outputs and receipt go in, relative to the target's
 * directory: `acceptance-N` for the first N from `from` (the attempt's acceptance records + 1) that
 * is not on disk. One that is there already, though no record of it was counted, holds the files
 * of a judgement whose record was never appended — an append that failed after its receipt was
 * kept, a judge killed mid-suite (R13.6, R8.4). Writing into it would put this judgement's files
 * beside that one's receipt, which would then seem to belong to this record; it is left as it is,
 * for `doctor` to name, rather than refused: the attempt can still be judged. Read under the
 * target's lock, so no other judge takes the number meanwhile; the suite then makes the directory
 * itself, refusing one that exists (run-suite.ts).
 */
export async function findFreeOutputsDirectory(targetDirectory: string, runId: string, attempt: number, from: number): Promise<string> {
  for (let number = from; ; number += 1) {
    const relative = acceptanceDirectoryName(runId, attempt, number);
    // lstat: a link at the name is something there too, and is never written through.
    const there = await lstat(join(targetDirectory, relative)).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return false;
        throw error;
      },
    );
    if (!there) return relative;
  }
}
