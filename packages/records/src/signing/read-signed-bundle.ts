import { readFile } from 'node:fs/promises';
import { signedBundlePath } from './signed-bundle-path.js';

/**
 * The text of the Sigstore bundle beside a record, or undefined when there is none: what
 * verifySignedBundle takes. Any other failure to read it (a directory in its place, no permission)
 * is thrown, naming the file.
 */
export async function readSignedBundle(recordPath: string): Promise<string | undefined> {
  const path = signedBundlePath(recordPath);
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
