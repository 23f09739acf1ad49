import type { Artifact } from '../chain/record-schemas.js';
import { readKeptFile } from './read-kept-file.js';
import type { AttemptAccount } from './attempt-account.js';

/** Whether a kept file still has the digest the chain holds (R8.4). */
export type ArtifactState = 'verified' | 'altered' | 'missing' | 'not-recorded';

export type ArtifactCheck = Record<keyof AttemptAccount['artifacts'], ArtifactState>;

/** One kept file against the digest the chain holds; a file that cannot be read is `missing`. */
export function checkKeptFile(artifact: Artifact | 'not-recorded'): ArtifactState {
  if (artifact === 'not-recorded') return 'not-recorded';
  const found = readKeptFile(artifact.path);
  if (found.kind === 'unreadable') return 'missing';
  return found.bytes === artifact.bytes && found.sha256 === artifact.sha256 ? 'verified' : 'altered';
}
