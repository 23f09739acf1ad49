import type { Command } from 'commander';
import type { generateKeys, showKeys } from './keys.js';
import { registerVerb } from './register-verb.js';

/** Registers `keys generate` and `keys show`. Computing is in keys.ts. */
export function registerKeys(program: Command): void {
  const keys = program
    .command('keys')
    .summary('make or show the key receipts and qualification records are signed with')
    .description(
      'The signing key: an ECDSA P-256 pair in $STATECRAFT_HOME/keys/ (the private key readable by its owner only, ' +
        'never visible to an adapter or a check), or the private key file STATECRAFT_SIGNING_KEY names. While there is ' +
        'one, every receipt and qualification record is signed beside it (X.sigstore.json, a Sigstore bundle).',
    );
  registerVerb<{ replace: boolean }, Awaited<ReturnType<typeof generateKeys>>['value']>(keys, {
    name: 'generate',
    description: 'make a signing key pair in the product home and print its public key',
    arguments: [],
    options: [['--replace', 'replace the key already there (its signatures then verify only with its old public key)']],
    help: `
Examples:
  statecraft keys generate
  statecraft keys generate --json | jq -r .publicKey > statecraft.pub

JSON: { keyId, algorithm, publicKey, source, privateKeyPath, publicKeyPath,
replaced, signingWith }.
Exit: 0 made; 2 refused: a key is already there (nothing changed);
4 an i/o error.`,
    answer: async (_words, flags, home) => {
      const { generateKeys } = await import('./keys.js');
      return generateKeys({ home, replace: flags.replace, environment: process.env });
    },
  });
  registerVerb<Record<string, never>, Awaited<ReturnType<typeof showKeys>>['value']>(keys, {
    name: 'show',
    description: 'print the signing key: its id and its public key',
    arguments: [],
    options: [],
    help: `
Examples:
  statecraft keys show
  statecraft keys show --json

JSON: { keyId, algorithm, publicKey, source, privateKeyPath, publicKeyPath }.
Exit: 0 shown; 2 refused: no key, or STATECRAFT_SIGNING_KEY names a file that
is not an ECDSA P-256 private key.`,
    answer: async (_words, _flags, home) => {
      const { showKeys } = await import('./keys.js');
      return showKeys({ home, environment: process.env });
    },
  });
}
