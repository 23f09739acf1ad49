import type { ProviderIdentification } from '@statecraft/adapter';
import { shortDigest } from './terminal-width.js';

/**
 * A provider's identity as a human line shows it (R3.1): its digest alone when it is the
 * executable's own, with each identity file it binds otherwise, or why it cannot be identified.
 */
export function describeProviderIdentity(identity: ProviderIdentification, executableDigest: string): string {
  if (identity.kind === 'unidentifiable') return `UNIDENTIFIABLE: ${identity.message}`;
  if (identity.files.length === 0) return `identity ${shortDigest(identity.digest)} (the executable's own)`;
  return `identity ${shortDigest(identity.digest)} (the executable ${shortDigest(executableDigest)}, ${identity.files.map((file) => `${file.path} ${shortDigest(file.digest)}`).join(', ')})`;
}
