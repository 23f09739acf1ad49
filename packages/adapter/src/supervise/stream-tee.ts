import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import type { z } from 'zod';
import type { StreamDigestSchema } from './attempt.js';

type StreamDigest = z.infer<typeof StreamDigestSchema>;

/**
 * Counts, hashes and (when given a file) keeps the raw bytes of one of the child's pipes, so the
 * record can carry the stream and its digest. The file is fsync'd before `finish` resolves: a
 * stream the chain refers to must be on disk (R8.4). Mode 0600: a stream may quote secrets.
 */
export class StreamTee {
  private readonly hash = createHash('sha256');
  private bytes = 0;
  private failure: Error | undefined;

  private constructor(
    private readonly path?: string,
    private readonly handle?: FileHandle,
    private readonly file?: Writable,
  ) {
    file?.on('error', (error) => {
      this.failure = new Error(`Could not write ${String(path)}`, { cause: error });
    });
  }

  static async open(path?: string): Promise<StreamTee> {
    if (path === undefined) return new StreamTee();
    const handle = await open(path, 'w', 0o600).catch((error: unknown) => {
      throw new Error(`Could not open ${path} for writing`, { cause: error });
    });
    return new StreamTee(path, handle, handle.createWriteStream({ autoClose: false }));
  }

  /** Returns false when the file is behind, so the caller can pause the pipe (backpressure). */
  write(chunk: Buffer): boolean {
    this.bytes += chunk.length;
    this.hash.update(chunk);
    return this.file === undefined || this.failure !== undefined ? true : this.file.write(chunk);
  }

  onDrain(listener: () => void): void {
    this.file?.once('drain', listener);
  }

  async finish(): Promise<StreamDigest> {
    const digest = { bytes: this.bytes, sha256: this.hash.digest('hex') };
    const { file, handle } = this;
    if (file === undefined || handle === undefined) return digest;
    if (this.failure === undefined) await new Promise<void>((resolve) => file.end(resolve));
    if (this.failure === undefined) {
      await handle.sync().catch((error: unknown) => {
        this.failure = new Error(`Could not fsync ${String(this.path)}`, { cause: error });
      });
    }
    await handle.close().catch(() => undefined);
    if (this.failure !== undefined) throw this.failure;
    return digest;
  }
}
