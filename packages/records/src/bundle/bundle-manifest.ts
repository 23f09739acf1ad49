import * as z from 'zod';

/** What each file of an exported bundle is: the verifier reads each by its role, never by guessing from its name. */
const BundleRoleSchema = z.enum([
  /** The run's own chain lines, byte for byte, in chain order. */
  'chain-records',
  /** The line before each run record that is not itself in the bundle: what that record's `prev` is the digest of. */
  'chain-anchors',
  'request',
  'prompt',
  'stream',
  'stderr',
  'result',
  'check-output',
  'receipt',
  'receipt-signature',
  'qualification',
  'qualification-signature',
  'public-key',
  'reviewer-page',
  /** The candidate as a git bundle (`git bundle create`): the run's branch from its base, so it can be landed elsewhere. */
  'git-bundle',
]);
export type BundleRole = z.infer<typeof BundleRoleSchema>;

/** A path inside a bundle: relative, `/`-separated, no `..`, nothing a tar could place outside where it is read. */
const BundlePathSchema = z
  .string()
  .min(1)
  .max(512)
  .regex(/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/)
  .refine((path) => !path.split('/').some((part) => part === '.' || part === '..'), 'a bundle path has no `.` or `..` part');

const BundleFileSchema = z.strictObject({
  path: BundlePathSchema,
  role: BundleRoleSchema,
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.int().nonnegative(),
});
export type BundleFile = z.infer<typeof BundleFileSchema>;

/**
 * `manifest.json`, the bundle's first file: what run it carries, where the chain stood when it was
 * exported (its last line's seq and digest), and every other file with its digest and role. Written
 * in one canonical form (JSON.stringify, one trailing newline), so every byte of it means something.
 */
export const BundleManifestSchema = z.strictObject({
  kind: z.literal('statecraft-bundle'),
  bundleVersion: z.literal(1),
  exportedAt: z.iso.datetime(),
  statecraft: z.strictObject({ version: z.string().min(1) }),
  target: z.strictObject({ path: z.string().min(1), key: z.string().min(1) }),
  runId: z.string().min(1),
  /** The chain's last complete line when the run was exported: every record of the run is at or before it. */
  chainTip: z.strictObject({ seq: z.int().nonnegative(), digest: z.string().regex(/^[0-9a-f]{64}$/) }),
  files: z.array(BundleFileSchema),
});
export type BundleManifest = z.infer<typeof BundleManifestSchema>;

export const MANIFEST_PATH = 'manifest.json';
/** The manifest's signature, beside it and outside its own list (it signs the list): written when the exporting home has a signing key. */
export const MANIFEST_SIGNATURE_PATH = 'manifest.sigstore.json';

/** The manifest's one form: what the exporter writes and the only bytes the verifier accepts for it. */
export function manifestBytes(manifest: BundleManifest): Buffer {
  return Buffer.from(`${JSON.stringify(manifest)}\n`);
}
