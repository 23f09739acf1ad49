import * as z from 'zod';

/** The signing key as `keys generate` and `keys show` print it: the public half only, never the private. */
export const KeysShowAnswerSchema = z.strictObject({
  /** Lower-case hex SHA-256 of the public key's DER SubjectPublicKeyInfo: the bundle's key hint. */
  keyId: z.string().regex(/^[0-9a-f]{64}$/),
  algorithm: z.literal('ecdsa-p256-sha256'),
  /** The public key, SPKI PEM: what a verifier is given (`--trust`, `cosign --key`). */
  publicKey: z.string().min(1),
  /** Where the key comes from: the product home's pair, or the file STATECRAFT_SIGNING_KEY names. */
  source: z.enum(['product-home', 'STATECRAFT_SIGNING_KEY']),
  /** The private key's file (its bytes are never printed). */
  privateKeyPath: z.string().min(1),
  /** The public key's file beside it, or null for a key STATECRAFT_SIGNING_KEY names. */
  publicKeyPath: z.string().min(1).nullable(),
});

/** `keys generate --json`: the key made, and whether it replaced one (`--replace`). */
export const KeysGenerateAnswerSchema = KeysShowAnswerSchema.extend({
  replaced: z.boolean(),
  /** Set when STATECRAFT_SIGNING_KEY names another key: that one signs, not the one made. */
  signingWith: z.string().min(1).nullable(),
});
