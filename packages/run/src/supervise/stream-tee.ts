import { createHash } from 'node:crypto';
import { close, createWriteStream, fsync, open } from 'node:fs';
import type { WriteStream } from 'node:fs';
import { promisify } from 'node:util';
import type { z } from 'zod';
import type { StreamDigestSchema } from '@statecraft/adapter';

type StreamDigest = z.infer<typeof StreamDigestSchema>;

const openFile = promisify(open);
const syncFile = promisify(fsync);
const closeFile = promisify(close);

/** A file of evidence (the kept stream, the adapter's stderr) that could not be written: names it. */
export class EvidenceWriteError extends Error {
  readonly path: string;
  constructor(path: string, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'EvidenceWriteError';
    this.path = path;
  }

  /** `could not <doing> <path> (<what the system said>)`. */
  static of(path: string, doing: string, cause: unknown): EvidenceWriteError {
    return new EvidenceWriteError(path, `could not ${doing} ${path} (${cause instanceof Error ? cause.message : String(cause)})`, cause);
  }
}

/** How a tee ended: the digest of every byte read from the pipe, and whether the file holds them all. */
export interface TeeEnding {
  digest: StreamDigest;
  kept: 'kept' | 'not-kept' | EvidenceWriteError;
}

/**
 * Counts, hashes and (when given a file) keeps the raw bytes of one of the child's pipes, so the
 * record can carry the stream and its digest. The file is fsync'd before `finish` resolves: a
 * stream the chain refers to must be on disk (R8.4). Mode 0600: a stream may quote secrets.
 *
 * At most `bound` bytes are taken (keep-bound.ts): the chunk that passes it is cut there, what
 * comes after is neither kept nor counted, and `reachedBound` settles so the supervisor can stop
 * the child. The digest is always of exactly the bytes taken, which the file then holds.
 *
 * A write that fails (a full disk) settles `failed` at once, so the supervisor can stop the
 * attempt instead of waiting for a `drain` the broken file will never send.
 */
export class StreamTee {
  private readonly hash = createHash('sha256');
  private bytes = 0;
  private failure: EvidenceWriteError | undefined;
  /** The first failure to keep the file so far (a write, the flush, the fsync); undefined while it keeps up. */
  get failedWith(): EvidenceWriteError | undefined {
    return this.failure;
  }
  private reportFailure: (failure: EvidenceWriteError) => void = () => undefined;
  /** Settles with the first write failure; never settles while the file keeps up. */
  readonly failed = new Promise<EvidenceWriteError>((resolve) => {
    this.reportFailure = resolve;
  });

  private reportBound: () => void = () => undefined;
  private cut = false;
  /** Whether a byte was left untaken at the bound. */
  get boundReached(): boolean {
    return this.cut;
  }
  /** Settles once a byte is left untaken at the bound; never settles while the pipe stays under it. */
  readonly reachedBound = new Promise<void>((resolve) => {
    this.reportBound = resolve;
  });

  private constructor(
    private readonly bound: number,
    private readonly target?: { path: string; fd: number; file: WriteStream },
  ) {
    target?.file.on('error', (error) => this.fail(EvidenceWriteError.of(target.path, 'write', error)));
  }

  static async open(bound: number, path?: string): Promise<StreamTee> {
    if (path === undefined) return new StreamTee(bound);
    const fd = await openFile(path, 'w', 0o600).catch((error: unknown) => {
      throw EvidenceWriteError.of(path, 'open for writing', error);
    });
    // A plain descriptor, not a FileHandle: the descriptor stays ours to fsync and close after the stream ends.
    return new StreamTee(bound, { path, fd, file: createWriteStream('', { fd, autoClose: false }) });
  }

  /**
   * The two tees of one child (stdout, stderr), their files opened at the same time: each open is
   * a trip to the thread pool paid before the spawn. When one cannot be opened, the other is
   * closed again and the first failure is thrown, as two opens in a row would have.
   */
  static async openPair(bound: number, stdoutPath?: string, stderrPath?: string): Promise<[StreamTee, StreamTee]> {
    const [stdout, stderr] = await Promise.allSettled([StreamTee.open(bound, stdoutPath), StreamTee.open(bound, stderrPath)]);
    if (stdout.status === 'fulfilled' && stderr.status === 'fulfilled') return [stdout.value, stderr.value];
    const opened = [stdout, stderr].filter((each) => each.status === 'fulfilled').map((each) => each.value.finish());
    await Promise.allSettled(opened);
    throw stdout.status === 'rejected' ? stdout.reason : (stderr as PromiseRejectedResult).reason;
  }

  /**
   * Takes a chunk, up to the bound: `kept` is the part taken (all of it below the bound), the only
   * bytes the caller may read as the stream; `behind` when the file is behind, so the caller can
   * pause the pipe (backpressure).
   */
  write(chunk: Buffer): { kept: Buffer; behind: boolean } {
    const room = this.bound - this.bytes;
    const kept = chunk.length > room ? chunk.subarray(0, Math.max(room, 0)) : chunk;
    if (kept.length < chunk.length) {
      this.cut = true;
      this.reportBound();
    }
    if (kept.length === 0) return { kept, behind: false };
    this.bytes += kept.length;
    this.hash.update(kept);
    const behind = this.target === undefined || this.failure !== undefined ? false : !this.target.file.write(kept);
    return { kept, behind };
  }

  /** Called once the file has caught up, or has failed: a failed file sends no `drain`, and a paused pipe must not wait for one. */
  onDrain(listener: () => void): void {
    const target = this.target;
    if (target === undefined) return;
    let called = false;
    const once = () => {
      if (called) return;
      called = true;
      listener();
    };
    target.file.once('drain', once);
    void this.failed.then(once);
  }

  async finish(): Promise<TeeEnding> {
    const ended = await this.end();
    return { digest: ended.digest, kept: await ended.durable };
  }

  /**
   * Flushes and ends the file, and leaves its fsync running: `durable` settles with what was kept
   * once the bytes are on disk and the descriptor is closed. For a file the chain refers to only
   * later (a suite's check outputs, awaited before the suite ends), so the next step need not wait
   * for the disk; `finish` is this and the wait together.
   */
  async end(): Promise<{ digest: StreamDigest; durable: Promise<TeeEnding['kept']> }> {
    const digest = { bytes: this.bytes, sha256: this.hash.digest('hex') };
    const target = this.target;
    if (target === undefined) return { digest, durable: Promise.resolve('not-kept') };
    if (this.failure === undefined) {
      await new Promise<void>((resolve) => {
        target.file.end(resolve);
        // A failure while flushing the last bytes ends the wait too (the stream emits `error`, not `finish`).
        void this.failed.then(() => resolve());
      });
    }
    const durable = (async (): Promise<TeeEnding['kept']> => {
      if (this.failure === undefined) {
        await syncFile(target.fd).catch((error: unknown) => this.fail(EvidenceWriteError.of(target.path, 'fsync', error)));
      }
      await closeFile(target.fd).catch(() => undefined);
      return this.failure ?? 'kept';
    })();
    return { digest, durable };
  }

  private fail(failure: EvidenceWriteError): void {
    if (this.failure !== undefined) return;
    this.failure = failure;
    this.reportFailure(failure);
  }
}
