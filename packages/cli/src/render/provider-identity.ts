import type { ProviderIdentification } from '@statecraft/adapter';

/**
 * A provider's identity as a human line shows it (R3.1): its digest alone when it is the
 * executable's own, with each identity file it binds otherwise, or why it cannot be identified.
 */
export function describeProviderIdentity(identity: ProviderIdentification, executableDigest: string): string {
  if (identity.kind === 'unidentifiable') return `UNIDENTIFIABLE: ${identity.message}`;
  if (identity.files.length === 0) return `identity ${identity.digest} (the executable's own)`;
  return `identity ${identity.digest} (the executable ${executableDigest}, ${identity.files.map((file) => `${file.path} ${file.digest}`).join(', ')})`;
}
