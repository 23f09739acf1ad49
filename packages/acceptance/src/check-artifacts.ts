import { hashFile } from '@statecraft/adapter';
import type { Artifact } from '@statecraft/run';
import type { AttemptAccount } from './attempt-account.js';

/** Whether a kept file still has the digest the chain holds (R8.4). */
export type ArtifactState = 'verified' | 'altered' | 'missing' | 'not-recorded';

export type ArtifactCheck = Record<keyof AttemptAccount['artifacts'], ArtifactState>;

/** Re-digests every file kept beside the chain for one attempt; read-only. */
export async function checkArtifacts(artifacts: AttemptAccount['artifacts']): Promise<ArtifactCheck> {
  const [request, prompt, stream, stderr, result] = await Promise.all([
    checkKeptFile(artifacts.request),
    checkKeptFile(artifacts.prompt),
    checkKeptFile(artifacts.stream),
    checkKeptFile(artifacts.stderr),
    checkKeptFile(artifacts.result),
  ]);
  return { request, prompt, stream, stderr, result };
}

/** One kept file against the digest the chain holds; a file that cannot be read is `missing`. */
export async function checkKeptFile(artifact: Artifact | 'not-recorded'): Promise<ArtifactState> {
  if (artifact === 'not-recorded') return 'not-recorded';
  const found = await hashFile(artifact.path).catch(() => undefined);
  if (found === undefined) return 'missing';
  return found.bytes === artifact.bytes && found.sha256 === artifact.sha256 ? 'verified' : 'altered';
}
