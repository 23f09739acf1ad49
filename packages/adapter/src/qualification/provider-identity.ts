import { realpath } from 'node:fs/promises';
import { arch, platform } from 'node:os';
import * as z from 'zod';
import { sha256Hex, digestFile } from '../content-digest.js';
import type { ProviderIdentityFile } from '../protocol/manifest.js';
import { Sha256DigestSchema } from '../schema-pieces.js';
import { locateIdentityFile } from './identity-file-location.js';

/** One identity file the provider's identity binds: as declared (`<package>/<file>`), and its digest. */
export const IdentityFileDigestSchema = z.strictObject({
  file: z.string().min(1),
  digest: Sha256DigestSchema,
});

/** The same, with the path it was found at on this machine. */
const LocatedIdentityFileSchema = IdentityFileDigestSchema.extend({ path: z.string().min(1) });
type LocatedIdentityFile = z.infer<typeof LocatedIdentityFileSchema>;

/**
 * The provider's identity for qualification (R3.1): `identified`, with the digest a record binds
 * and each identity file it covers, or `unidentifiable`, saying which declared file could not be
 * found or read — such a provider is no qualified pair's.
 */
export const ProviderIdentificationSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('identified'), digest: Sha256DigestSchema, files: z.array(LocatedIdentityFileSchema) }),
  z.strictObject({ kind: z.literal('unidentifiable'), message: z.string().min(1) }),
]);
export type ProviderIdentification = z.infer<typeof ProviderIdentificationSchema>;

/** The first line of the text whose digest is a combined identity: names the form, so it can change. */
const IDENTITY_FORM = 'statecraft provider identity 1';

export interface IdentifyProviderInput {
  /** The provider executable as named (a launcher, often a symbolic link to it). */
  executable: string;
  /** `sha256:<hex>` of the executable's bytes, as the caller took it (through its cache, or not). */
  executableDigest: string;
  /** The manifest's `providerIdentityFiles`; absent or empty: the executable's bytes are the identity. */
  declared: readonly ProviderIdentityFile[] | undefined;
  /** How a file is digested: through the product home's digest cache where the caller keeps one. */
  digestOf?: (path: string) => Promise<string>;
  /** Default: this process's platform. */
  platform?: { os: string; arch: string };
}

/**
 * The digest that identifies a provider (R3.1). With no identity files declared it is the
 * executable's own digest, as before they existed. Otherwise it is the sha256 of the text
 * `statecraft provider identity 1`, `executable <digest>`, then one line `<package>/<file> <digest>`
 * per declared file of this platform in the manifest's order — so a native binary swapped behind a
 * byte-identical launcher, or an upgrade that changes only it, is another provider. A declared
 * file that is missing or unreadable, or declarations for other platforms only, make the provider
 * unidentifiable, named.
 */
export async function identifyProvider(input: IdentifyProviderInput): Promise<ProviderIdentification> {
  const declared = input.declared ?? [];
  if (declared.length === 0) return { kind: 'identified', digest: input.executableDigest, files: [] };
  const here = input.platform ?? { os: platform(), arch: arch() };
  const forHere = declared.filter((entry) => entry.os === here.os && entry.arch === here.arch);
  if (forHere.length === 0) {
    const platforms = [...new Set(declared.map((entry) => `${entry.os}/${entry.arch}`))].join(', ');
    return unidentifiable(`${input.executable}: its identity files are declared for ${platforms}, not for ${here.os}/${here.arch}`);
  }
  const executableRealPath = await realpath(input.executable).catch((error: NodeJS.ErrnoException) => error);
  if (executableRealPath instanceof Error)
    return unidentifiable(`${input.executable}: its real path cannot be read (${executableRealPath.code ?? executableRealPath.message})`);
  const files: LocatedIdentityFile[] = [];
  for (const entry of forHere) {
    const location = await locateIdentityFile(executableRealPath, entry);
    if (location.kind === 'not-found') return unidentifiable(`${input.executable}: ${location.message}`);
    const digest = await (input.digestOf ?? digestFile)(location.path).catch((error: NodeJS.ErrnoException) => error);
    if (digest instanceof Error) {
      return unidentifiable(`${input.executable}: the declared identity file ${location.path} cannot be read (${digest.code ?? digest.message})`);
    }
    files.push({ file: `${entry.package}/${entry.file}`, path: location.path, digest });
  }
  const text = [IDENTITY_FORM, `executable ${input.executableDigest}`, ...files.map((file) => `${file.file} ${file.digest}`)].join('\n');
  return { kind: 'identified', digest: `sha256:${sha256Hex(`${text}\n`)}`, files };
}

function unidentifiable(message: string): ProviderIdentification {
  return { kind: 'unidentifiable', message: `the provider cannot be identified: ${message}` };
}
