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

/** Commander's collector for a repeatable option. */
export function collectTrust(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
