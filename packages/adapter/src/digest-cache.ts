import { realpathSync } from 'node:fs';
import * as z from 'zod';
import { Sha256HexSchema } from './schema-pieces.js';
import { FileIdentitySchema, readFileIdentitySync, sameFileIdentity } from './file-identity.js';

/** One remembered digest: the file's real path, the identity its bytes had, and their sha256. */
export const KnownDigestSchema = z.strictObject({
  path: z.string().startsWith('/'),
  identity: FileIdentitySchema,
  sha256: Sha256HexSchema,
});
export type KnownDigest = z.infer<typeof KnownDigestSchema>;

/**
 * The digest handed over for `path` if it still describes the file there: the same real path and
 * the same identity now. Otherwise undefined, and the caller hashes the file itself. Read
 * synchronously: the adapter asks on its way to the provider's start, with nothing else to do.
 */
export function matchKnownDigest(path: string, known: readonly KnownDigest[]): KnownDigest | undefined {
  if (known.length === 0) return undefined;
  const real = realpathSync(path);
  const candidate = known.find((entry) => entry.path === real);
  if (candidate === undefined) return undefined;
  return sameFileIdentity(candidate.identity, readFileIdentitySync(real)) ? candidate : undefined;
}
