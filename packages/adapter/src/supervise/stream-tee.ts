import { createHash } from 'node:crypto';
import { close, createWriteStream, fsync, open } from 'node:fs';
import type { WriteStream } from 'node:fs';
import { promisify } from 'node:util';
import type { z } from 'zod';
import type { StreamDigestSchema } from './attempt.js';

type StreamDigest = z.infer<typeof StreamDigestSchema>;

const openFile = promisify(open);
const syncFile = promisify(fsync);
const closeFile = promisify(close);

/**
 * Counts, hashes and (when given a file) keeps the raw bytes of one of the child's pipes, so the
 * record can carry the stream and its digest. The file is fsync'd before `finish` resolves: a
 * stream the chain refers to must be on disk (R8.4). Mode 0600: a stream may quote secrets.
 */
export class StreamTee {
  private readonly hash = createHash('sha256');
  private bytes = 0;
  private failure: Error | undefined;

  private constructor(private readonly target?: { path: string; fd: number; file: WriteStream }) {
    target?.file.on('error', (error) => {
      this.failure = new Error(`Could not write ${target.path}`, { cause: error });
    });
  }

  static async open(path?: string): Promise<StreamTee> {
    if (path === undefined) return new StreamTee();
    const fd = await openFile(path, 'w', 0o600).catch((error: unknown) => {
      throw new Error(`Could not open ${path} for writing`, { cause: error });
    });
    // A plain descriptor, not a FileHandle: the descriptor stays ours to fsync and close after the stream ends.
    return new StreamTee({ path, fd, file: createWriteStream('', { fd, autoClose: false }) });
  }

  /** Returns false when the file is behind, so the caller can pause the pipe (backpressure). */
  write(chunk: Buffer): boolean {
    this.bytes += chunk.length;
    this.hash.update(chunk);
    return this.target === undefined || this.failure !== undefined ? true : this.target.file.write(chunk);
  }

  onDrain(listener: () => void): void {
    this.target?.file.once('drain', listener);
  }

  async finish(): Promise<StreamDigest> {
    const digest = { bytes: this.bytes, sha256: this.hash.digest('hex') };
    const target = this.target;
    if (target === undefined) return digest;
    if (this.failure === undefined) await new Promise<void>((resolve) => target.file.end(resolve));
    if (this.failure === undefined) {
      await syncFile(target.fd).catch((error: unknown) => {
        this.failure = new Error(`Could not fsync ${target.path}`, { cause: error });
      });
    }
    await closeFile(target.fd).catch(() => undefined);
    if (this.failure !== undefined) throw this.failure;
    return digest;
  }
}
