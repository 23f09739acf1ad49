import { checkProductHomeWritable, generateSigningKey, signingKeyPaths, type SigningKey } from '@statecraft/records';
import { signingKeyOrRefusal } from './signing-options.js';
import type { z } from 'zod';
import type { Answer } from '../answer.js';
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import type { KeysGenerateAnswerSchema, KeysShowAnswerSchema } from '../json-schemas/index.js';
import { renderKeysGenerate, renderKeysShow } from './keys-render.js';

export type KeysShowValue = z.infer<typeof KeysShowAnswerSchema>;
export type KeysGenerateValue = z.infer<typeof KeysGenerateAnswerSchema>;

/**
 * `statecraft keys generate`: makes the product home's signing key pair. A key already there is
 * kept (exit 2) unless `--replace`: a new key leaves every signature of the old one to verifiers
 * that trust only the old one.
 */
export async function generateKeys(options: { home: string; replace: boolean; environment: NodeJS.ProcessEnv }): Promise<Answer<KeysGenerateValue>> {
  // A home that cannot be made fails here, naming it, as for every verb that writes the home.
  checkProductHomeWritable(options.home);
  const made = await generateSigningKey(options.home, { replace: options.replace });
  if ('existing' in made) {
    throw new CliError(`refused: a signing key is already there (${made.existing}); nothing was changed`, EXIT.refused, {
      hint: 'statecraft keys show prints it; --replace makes a new one (signatures by the old key then verify only with the old public key)',
    });
  }
  const named = options.environment['STATECRAFT_SIGNING_KEY'];
  const value: KeysGenerateValue = {
    ...shown(made.key, options.home),
    replaced: made.replaced,
    signingWith: named === undefined || named === '' ? null : named,
  };
  return { value, exitCode: EXIT.ok, human: renderKeysGenerate };
}

/** `statecraft keys show`: the signing key statecraft signs with, its public half. No key: refused (exit 2). */
export async function showKeys(options: { home: string; environment: NodeJS.ProcessEnv }): Promise<Answer<KeysShowValue>> {
  const key = await signingKeyOrRefusal(options.home, options.environment);
  if (key === undefined) {
    throw new CliError(`refused: no signing key (none at ${signingKeyPaths(options.home).privateKey}, STATECRAFT_SIGNING_KEY unset)`, EXIT.refused, {
      hint: 'statecraft keys generate makes one',
    });
  }
  return { value: shown(key, options.home), exitCode: EXIT.ok, human: renderKeysShow };
}

function shown(key: SigningKey, home: string): KeysShowValue {
  return {
    keyId: key.keyId,
    algorithm: 'ecdsa-p256-sha256',
    publicKey: key.publicKeyPem,
    source: key.source,
    privateKeyPath: key.path,
    publicKeyPath: key.source === 'product-home' ? signingKeyPaths(home).publicKey : null,
  };
}
