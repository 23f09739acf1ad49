import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import type { Artifact } from '../chain/record-schemas.js';
import { syncFile, writeFileDurably } from '../durable-write.js';

/** Writes one attempt file durably and returns its digest for the chain (R8.4). */
export async function keepArtifact(targetDirectory: string, relativePath: string, data: string | Uint8Array): Promise<Artifact> {
  await writeFileDurably(join(targetDirectory, relativePath), data);
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  return { path: relativePath, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
}

/**
 * Flushes and digests a file the supervisor wrote (the raw event stream, the adapter's stderr).
 * `not-recorded` when it does not exist: the chain says so rather than inventing a digest.
 */
export async function digestWrittenArtifact(targetDirectory: string, relativePath: string): Promise<Artifact | 'not-recorded'> {
  const path = join(targetDirectory, relativePath);
  try {
    await syncFile(path);
  } catch {
    return 'not-recorded';
  }
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { path: relativePath, sha256: hash.digest('hex'), bytes };
}
