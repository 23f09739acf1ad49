import { createHash } from 'node:crypto';
import { closeSync, readSync } from 'node:fs';
import { describeUnopenable, openRegularFileSync } from '@statecraft/adapter';
import type { Artifact } from '../chain/record-schemas.js';
import type { AttemptAccount } from './attempt-account.js';

/** Whether a kept file still has the digest the chain holds (R8.4). */
export type ArtifactState = 'verified' | 'altered' | 'missing' | 'not-recorded';

export type ArtifactCheck = Record<keyof AttemptAccount['artifacts'], ArtifactState>;

/** Read size: one chunk is all that is held, whatever the size of a kept file. */
const CHUNK_BYTES = 256 * 1024;

/** Re-digests every file kept beside the chain for one attempt; read-only. */
export function checkArtifacts(artifacts: AttemptAccount['artifacts']): Promise<ArtifactCheck> {
  return Promise.resolve({
    request: checkKeptFile(artifacts.request),
    prompt: checkKeptFile(artifacts.prompt),
    stream: checkKeptFile(artifacts.stream),
    stderr: checkKeptFile(artifacts.stderr),
    result: checkKeptFile(artifacts.result),
  });
}

/** One kept file against the digest the chain holds; a file that cannot be read is `missing`. */
export function checkKeptFile(artifact: Artifact | 'not-recorded'): ArtifactState {
  if (artifact === 'not-recorded') return 'not-recorded';
  const found = readKeptFile(artifact.path);
  if (found.kind === 'unreadable') return 'missing';
  return found.bytes === artifact.bytes && found.sha256 === artifact.sha256 ? 'verified' : 'altered';
}

/** `why`: what stands at the path, in words that follow it in a sentence (`is missing`, `is not a regular file …`; describeUnopenable). */
export type KeptFileReading = { kind: 'read'; sha256: string; bytes: number } | { kind: 'unreadable'; message: string; why: string };

function unreadable(error: unknown): KeptFileReading {
  return { kind: 'unreadable', message: (error as Error).message, why: describeUnopenable(error) };
}

/**
 * Reads a kept file once, in bounded chunks, hashing it and handing each chunk (a copy, the
 * caller's to keep) to `onChunk` when one is given. Synchronous on purpose: `doctor` reads five small files per
 * attempt over thousands of attempts, and a thread-pool hop per read cost ten times the hashing
 * (measured: 5,000 files, 1 s of CPU asynchronously, 0.1 s synchronously); nothing else waits on
 * the event loop of a reader that only reads.
 */
export function readKeptFile(path: string, onChunk?: (chunk: Buffer) => void): KeptFileReading {
  const hash = createHash('sha256');
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  let bytes = 0;
  let fd: number;
  try {
    fd = openRegularFileSync(path);
  } catch (error) {
    return unreadable(error);
  }
  try {
    for (;;) {
      const read = readSync(fd, buffer, 0, CHUNK_BYTES, null);
      if (read === 0) return { kind: 'read', sha256: hash.digest('hex'), bytes };
      const chunk = buffer.subarray(0, read);
      hash.update(chunk);
      bytes += read;
      // Copied only for a caller that reads the chunks: hashing alone makes no garbage however large the file.
      onChunk?.(Buffer.from(chunk));
    }
  } catch (error) {
    return unreadable(error);
  } finally {
    closeSync(fd);
  }
}
