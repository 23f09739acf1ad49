import { digestFile } from '@statecraft/adapter';

/**
 * A file whose bytes a qualification binds (R3.1): the adapter executable and its manifest (which
 * every case reads again), and the provider's executable and identity files when the pair is qualified.
 */
export interface BoundFile {
  role: 'adapter executable' | 'adapter manifest' | 'provider executable' | 'provider identity file';
  path: string;
  /** `sha256:<hex>` when the suite started. */
  digest: string;
}

/**
 * Each bound file's digest again, against the one taken when the suite started: a sentence for
 * every file that changed (or can no longer be read), none when every byte is the same. The suite
 * asks between cases, so a qualification never binds bytes that did not run every case.
 */
export async function changedBoundFiles(files: readonly BoundFile[]): Promise<string[]> {
  const changes: string[] = [];
  for (const file of files) {
    const now = await digestFile(file.path).catch((error: NodeJS.ErrnoException) => `unreadable (${error.code ?? error.message})`);
    if (now !== file.digest) changes.push(`the ${file.role} ${file.path} changed: ${file.digest} when the suite started, ${now} now`);
  }
  return changes;
}
