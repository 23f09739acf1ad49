import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';

/** Read size for hashing: large enough for a binary of hundreds of megabytes, small enough to hold five at once. */
const CHUNK_BYTES = 256 * 1024;

/**
 * sha256 (hex) and length of a file's bytes, read in chunks through one file handle: binaries can
 * be hundreds of megabytes, and a read stream's machinery cost more than the hashing for the small
 * files every `run` re-digests.
 */
export async function hashFile(path: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    let bytes = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) return { sha256: hash.digest('hex'), bytes };
      hash.update(buffer.subarray(0, bytesRead));
      bytes += bytesRead;
    }
  } finally {
    await handle.close();
  }
}

/** `sha256:<hex>` of a file's bytes. */
export async function digestFile(path: string): Promise<string> {
  return `sha256:${(await hashFile(path)).sha256}`;
}

/** `<hex>` sha256 of bytes or text held in memory. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
