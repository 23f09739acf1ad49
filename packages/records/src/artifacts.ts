import { join } from 'node:path';
import { sha256Hex } from '@statecraft/adapter';
import { writeFileDurably } from './durable-write.js';
import type { Artifact } from './chain/record-schemas.js';

/** Writes one attempt file durably and returns its digest for the chain (R8.4). */
export async function keepArtifact(targetDirectory: string, relativePath: string, data: string | Uint8Array): Promise<Artifact> {
  await writeFileDurably(join(targetDirectory, relativePath), data);
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  return { path: relativePath, sha256: sha256Hex(bytes), bytes: bytes.length };
}
