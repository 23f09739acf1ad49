import * as z from 'zod';
import validSemver from 'semver/functions/valid.js';
import { CapabilityListSchema } from '../capabilities.js';
import { ProtocolVersionSchema } from './version.js';

/** A bare program name (R9.1): letters, digits and `_ . + -`; no `/`, no whitespace. */
const BareProgramNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9_.+-]+$/, { message: 'must be a bare program name (no "/", no whitespace)' })
  .refine((name) => name !== '.' && name !== '..', { message: 'must be a bare program name, not "." or ".."' });

/** A name the adapter needs carried from the operator's environment into the child (R5.4). */
const PassedNameSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: 'must be an environment variable name' }),
  /** A secret's value is never written to a record; only its name. */
  secret: z.boolean(),
  /** Why the adapter needs it, e.g. "credential path: ~/.provider/credentials.json". */
  why: z.string().min(1),
});

/** Something that must be present before the adapter may claim its managed paths (R10.6). */
export const PrerequisiteSchema = z.discriminatedUnion('kind', [
  /** An executable resolvable on the constructed PATH. */
  z.strictObject({ kind: z.literal('command'), command: BareProgramNameSchema }),
  /** A qualification record for this exact adapter (and provider, if it fronts one). */
  z.strictObject({ kind: z.literal('qualification') }),
  /** The provider's credential path: any one of these is enough. `~` is the constructed HOME. */
  z.strictObject({
    kind: z.literal('credential'),
    anyOf: z.array(z.union([z.strictObject({ env: z.string().min(1) }), z.strictObject({ file: z.string().min(1) })])).min(1),
  }),
]);
export type Prerequisite = z.infer<typeof PrerequisiteSchema>;

/**
 * A file the provider's executable runs that the executable's own bytes do not fix — the native
 * binary behind a launcher script, a helper it ships — so the provider's identity binds it too
 * (R3.1). Named as the launcher finds it: a file inside a package found in a `node_modules`
 * directory above the executable's real path, the way Node's module lookup finds it, for one
 * platform (`process.platform` and `process.arch`); other platforms skip it.
 */
export const ProviderIdentityFileSchema = z.strictObject({
  kind: z.literal('node-package-file'),
  os: z.string().min(1),
  arch: z.string().min(1),
  package: z.string().regex(/^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/, { message: 'must be a package name (`name` or `@scope/name`)' }),
  /** A path inside the package: relative, with no `.`, `..` or empty segment. */
  file: z
    .string()
    .min(1)
    .refine((path) => path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..'), {
      message: 'must be a relative path inside the package (no leading "/", no "." or ".." segment)',
    }),
});
export type ProviderIdentityFile = z.infer<typeof ProviderIdentityFileSchema>;

/**
 * An adapter's manifest (R2.2): read first, every time, without executing anything. It sits
 * beside the executable as `<executable>.manifest.json`, or is named on the command line.
 */
export const ManifestSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, { message: 'must be lower-case letters, digits and "-"' }),
  version: z.string().refine((v) => validSemver(v) !== null, { message: 'must be a semantic version (x.y.z)' }),
  protocol: ProtocolVersionSchema,
  capabilities: CapabilityListSchema,
  requiresCommands: z.array(BareProgramNameSchema).refine((names) => new Set(names).size === names.length, { message: 'a command is listed twice' }),
  /** Names carried from the operator's environment when set (the provider's credential path). */
  environment: z.strictObject({ pass: z.array(PassedNameSchema) }).optional(),
  /** Paths (with `~` for the constructed HOME) the adapter's provider writes and manages. */
  managedPaths: z.array(z.string().min(1)).optional(),
  /**
   * Paths (with `~` for the constructed HOME) the provider only reads, such as a login's
   * credentials file: inside the boundary, which hides the homes, each is bound back read-only
   * when it exists.
   */
  readablePaths: z.array(z.string().min(1)).optional(),
  prerequisites: z.array(PrerequisiteSchema).optional(),
  /**
   * What the provider's identity binds besides its executable's bytes (R3.1). Declared for some
   * platform but not for this one, the provider cannot be identified here.
   */
  providerIdentityFiles: z.array(ProviderIdentityFileSchema).optional(),
});
export type Manifest = z.infer<typeof ManifestSchema>;
