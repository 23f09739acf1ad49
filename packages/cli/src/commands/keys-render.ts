import type { HumanLines } from '../render/human-lines.js';
import { fitRows } from '../render/terminal-width.js';
import type { KeysGenerateValue, KeysShowValue } from './keys.js';

/** `keys show`: the key id, where the key is, and the public key to hand a verifier. */
export function renderKeysShow(value: KeysShowValue): HumanLines {
  return fitRows([
    `signing key ${value.keyId}`,
    `  ECDSA P-256 with SHA-256`,
    value.source === 'product-home'
      ? `  private key ${value.privateKeyPath} (its owner only)`
      : `  private key ${value.privateKeyPath} (STATECRAFT_SIGNING_KEY)`,
    ...(value.publicKeyPath === null ? [] : [`  public key  ${value.publicKeyPath}`]),
    '',
    ...value.publicKey.trimEnd().split('\n'),
  ]);
}

/** `keys generate`: as `keys show`, and what a replaced key or STATECRAFT_SIGNING_KEY means for signing. */
export function renderKeysGenerate(value: KeysGenerateValue): HumanLines {
  return [
    value.replaced ? 'made a new signing key pair; the old one is gone' : 'made a signing key pair',
    ...renderKeysShow(value),
    '',
    ...(value.signingWith === null
      ? ['Receipts and qualification records are signed with it from now on.']
      : [`STATECRAFT_SIGNING_KEY is set: records are signed with ${value.signingWith},`, 'not with this key, while it stays set.']),
    'Give the public key to whoever verifies: statecraft --trust <file>.',
  ];
}
