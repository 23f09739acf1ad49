import type { Artifact } from '../chain/record-schemas.js';
import { readKeptFile, type KeptFileReading } from './read-kept-file.js';
import type { AttemptAccount } from './attempt-account.js';

/** Whether a kept file still has the digest the chain holds (R8.4). */
export type ArtifactState = 'verified' | 'altered' | 'missing' | 'not-recorded';

export type ArtifactCheck = Record<keyof AttemptAccount['artifacts'], ArtifactState>;

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

/** The one reader of a kept file's digest, answered from here too for the readers that check. */
export { readKeptFile, type KeptFileReading };
