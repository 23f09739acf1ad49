import { rm, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { makeDirectories } from '@statecraft/adapter';
import type { Artifact } from '@statecraft/records';
import { keepArtifact } from '@statecraft/records';
import { writingFile } from '@statecraft/records';
import { keepOutcomeReserve } from './outcome-reserve.js';

/** Where one attempt's files go, and what the intent's files hold. */
export interface IntentFilesPlace {
  /** The target's directory in the product home: artifact paths are relative to it. */
  targetDirectory: string;
  /** The attempt's own directory (chain-paths.ts `attempt`). */
  attemptDirectory: string;
  /** The request's and the prompt's paths, relative to the target directory. */
  names: { request: string; prompt: string };
  /** The outcome reserve's file (outcome-reserve.ts). */
  reserve: string;
}

/** The intent's files once written: their digests, or the first failure, naming its file. */
export type IntentFiles = { kind: 'written'; request: Artifact; prompt: Artifact } | { kind: 'failed'; error: unknown };

/**
 * Writes what the intent names besides itself — the request and the prompt, durably, and the
 * outcome reserve — as soon as the request exists, while git checks the workspace out and the
 * boundary is probed: the intent then waits for its own line only (R8.4 holds: the intent is
 * appended after these are fsync'd, never before). Until the intent is appended they are named by
 * no record; an attempt stopped before it withdraws them (`withdrawIntentFiles`), and one a killed
 * supervisor left behind is unnamed bytes in an attempt number the chain never gave out, which
 * the next attempt of that run overwrites. Never rejects.
 */
export async function writeIntentFiles(place: IntentFilesPlace, texts: { request: string; prompt: string }): Promise<IntentFiles> {
  try {
    await writingFile(place.attemptDirectory, () => Promise.resolve(makeDirectories(place.attemptDirectory, 0o700)));
    const [request, prompt] = await Promise.all([
      writingFile(join(place.targetDirectory, place.names.request), () => keepArtifact(place.targetDirectory, place.names.request, texts.request)),
      writingFile(join(place.targetDirectory, place.names.prompt), () => keepArtifact(place.targetDirectory, place.names.prompt, texts.prompt)),
      writingFile(place.reserve, () => keepOutcomeReserve(place.reserve)),
    ]);
    return { kind: 'written', request, prompt };
  } catch (error) {
    return { kind: 'failed', error };
  }
}

/**
 * Removes an attempt's files when no intent was appended for it (R8.6: a stopped attempt leaves the
 * home as it found it): its directory whole — the chain never gave out its number, so nothing else
 * is there — and the run's directory when this attempt was its only one, and `attempts/` when it
 * holds nothing else. Waits for the writes first.
 */
export async function withdrawIntentFiles(place: IntentFilesPlace, writing: Promise<IntentFiles>): Promise<void> {
  await writing;
  await rm(place.attemptDirectory, { recursive: true, force: true }).catch(() => undefined);
  // Not empty when the run has earlier attempts: then it stays, and rmdir says so harmlessly. So
  // does `attempts/` itself, unless this was the target's first attempt (then the lock's release
  // takes back the target's directory too, repository-lock.ts).
  const removed = await rmdir(dirname(place.attemptDirectory)).then(
    () => true,
    () => false,
  );
  if (removed) await rmdir(dirname(dirname(place.attemptDirectory))).catch(() => undefined);
}
