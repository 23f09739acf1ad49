/**
 * Where the Sigstore bundle that signs a record is kept: beside it, `X.json` → `X.sigstore.json`
 * (the name cosign and the Sigstore clients give a bundle), so a reader finds a record's signature
 * from the record's path alone.
 */
export function signedBundlePath(recordPath: string): string {
  return recordPath.endsWith('.json') ? `${recordPath.slice(0, -'.json'.length)}.sigstore.json` : `${recordPath}.sigstore.json`;
}
