import { realpathSync } from 'node:fs';
import { homesToHide, type BoundaryChoice } from '@statecraft/environment';
import { readSigningKey, readTrustedKeys, SigningKeyProblem, type SigningKey, type TrustedKey } from '@statecraft/records';
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';

/** The signing key, or none; a key file that cannot serve is refused naming it (exit 2), nothing done. */
export async function signingKeyOrRefusal(home: string, environment: NodeJS.ProcessEnv): Promise<SigningKey | undefined> {
  try {
    return await readSigningKey(home, environment);
  } catch (error) {
    if (error instanceof SigningKeyProblem)
      throw new CliError(`refused: ${error.message}`, EXIT.refused, {
        cause: error,
        hint: 'name a PEM ECDSA P-256 private key, or unset STATECRAFT_SIGNING_KEY',
      });
    throw error;
  }
}

/**
 * The keys `--trust` (repeatable) and STATECRAFT_TRUSTED_KEYS name; a file that is no P-256 public
 * key is refused naming it (exit 2), since a trust list shorter than asked would mislead.
 */
export async function trustedKeysOrRefusal(flags: readonly string[], environment: NodeJS.ProcessEnv): Promise<TrustedKey[]> {
  try {
    return await readTrustedKeys(flags, environment);
  } catch (error) {
    if (error instanceof SigningKeyProblem)
      throw new CliError(`refused: ${error.message}`, EXIT.refused, { cause: error, hint: 'give --trust the public key `statecraft keys show` prints (PEM)' });
    throw error;
  }
}

/**
 * Refuses (exit 2) a launch inside the boundary while STATECRAFT_SIGNING_KEY names a file the
 * adapter or a check could read there: the boundary hides the homes and the product home, not the
 * rest of the file system, so a private key kept elsewhere (or exposed with --expose) would be in
 * reach of the very code whose work it signs. Without the boundary nothing is hidden, by choice.
 */
export function refuseSigningKeyInReach(environment: NodeJS.ProcessEnv, boundary: BoundaryChoice, productHome: string): void {
  const named = environment['STATECRAFT_SIGNING_KEY'];
  if (named === undefined || named === '' || boundary.kind === 'none') return;
  const real = realOrUndefined(named);
  // A key file that cannot be resolved is named by the key's own reading, with its reason.
  if (real === undefined) return;
  const hidden = [productHome, ...homesToHide(environment['HOME']).map((home) => home.path)].map((path) => realOrUndefined(path) ?? path);
  const exposed = (boundary.expose ?? []).map((path) => realOrUndefined(path) ?? path);
  const within = (path: string, directory: string) => path === directory || path.startsWith(directory.endsWith('/') ? directory : `${directory}/`);
  const hiddenThere = hidden.some((directory) => within(real, directory)) && !exposed.some((directory) => within(real, directory));
  if (hiddenThere) return;
  throw new CliError(
    `refused: ${named}: STATECRAFT_SIGNING_KEY names a private key an adapter or a check could read inside the boundary (${
      exposed.some((directory) => within(real, directory)) ? 'it is exposed with --expose' : 'it lies in no hidden home'
    }); nothing done`,
    EXIT.refused,
    { hint: 'keep the key under your home directory or the product home (statecraft keys generate), or unset STATECRAFT_SIGNING_KEY' },
  );
}

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}
