import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** `sha256:<hex>` of a file's bytes, streamed (binaries can be hundreds of megabytes). */
export async function digestFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return `sha256:${hash.digest('hex')}`;
}

/** `<hex>` sha256 of bytes or text held in memory. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
