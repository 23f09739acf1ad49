import * as z from 'zod';
import { ProviderIdentitySchema } from '@statecraft/adapter';
import { NotRecordedSchema } from '@statecraft/adapter';
import { AdapterIdentitySchema } from '@statecraft/adapter';
import { AttemptStartSchema, CandidateMadeBySchema } from '@statecraft/adapter';

const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);
const CommitId = z.string().regex(/^[0-9a-f]{40,64}$/);
const Digest = z.string().regex(/^sha256:[0-9a-f]{64}$/);

/** An output of a check, bound by its digest (the file itself is kept beside the chain). */
const CheckOutputDigestSchema = z.strictObject({ sha256: Sha256Hex, bytes: z.int().nonnegative() });

/** One check as the receipt binds it: what ran, how it ended, and the digests of what it printed. */
const ReceiptCheckSchema = z.strictObject({
  /** The command line as the suite at the base holds it. */
  command: z.string().min(1),
  /** The program run: the first word of a simple command (R9.2), or `/bin/sh` for any other. */
  program: z.string().min(1),
  /** Run through `/bin/sh -c` (the command is not simple), rather than as argv without a shell. */
  shell: z.boolean(),
  exitCode: z.int(),
  durationMs: z.number().nonnegative(),
  stdout: CheckOutputDigestSchema,
  stderr: CheckOutputDigestSchema,
});

/**
 * An acceptance receipt (R13.6): evidence that statecraft ran the suite read at the base over
 * exactly the candidate's bytes and every check exited 0, with HEAD unchanged and the tree clean,
 * and that the candidate changed nothing in the authority set. It is evidence, not a permission,
 * and it says nothing about what the checks do not test. `signature`: `unsigned`, or
 * `sigstore-bundle` when a signing key signed it: `receipt.sigstore.json` beside it (an in-toto
 * statement in a Sigstore bundle) holds the signature, whose digest the acceptance record binds.
 */
export const ReceiptSchema = z.strictObject({
  kind: z.literal('statecraft-receipt'),
  receiptVersion: z.literal(1),
  /** When statecraft minted it, ISO 8601. */
  issuedAt: z.iso.datetime(),
  repository: z.strictObject({
    /** The target's absolute path when judged. */
    path: z.string().min(1),
    /** The key its records are filed under in the product home. */
    key: z.string().min(1),
  }),
  baseCommit: CommitId,
  candidate: z.strictObject({
    commit: CommitId,
    tree: CommitId,
    /**
     * Who made it, and the workspace as the attempt found it (R13.2): the attempt's work is what
     * lies between the two. Absent from receipts minted before they were bound, and `start` from
     * those of attempts recorded before starts were.
     */
    madeBy: CandidateMadeBySchema.optional(),
    start: AttemptStartSchema.optional(),
  }),
  /** In the order they ran; every one exited 0. */
  checks: z.array(ReceiptCheckSchema).min(1),
  /** Over the authority set's entries at the base: the spec, the declaration, the declared authority paths. */
  policyDigest: Digest,
  statecraft: z.strictObject({ version: z.string().min(1) }),
  adapter: AdapterIdentitySchema,
  provider: z.union([ProviderIdentitySchema, z.literal('none'), NotRecordedSchema]),
  qualification: z.enum(['qualified', 'unqualified']),
  /**
   * The evidence boundary the checks ran under (R12, R13.3): `bwrap` with its profile's digest, or
   * `none` when the operator turned it off. Absent only from receipts minted before checks ran in it.
   */
  boundary: z
    .strictObject({ mechanism: z.enum(['bwrap', 'none']), version: z.string().min(1), profileDigest: z.union([Digest, z.literal('not-applicable')]) })
    .optional(),
  attempt: z.strictObject({
    runId: z.string().min(1),
    attempt: z.int().positive(),
    /** The sha256 of the chain lines of the attempt's intent and outcome. */
    intent: Sha256Hex,
    outcome: Sha256Hex,
  }),
  signature: z.enum(['unsigned', 'sigstore-bundle']),
});
export type Receipt = z.infer<typeof ReceiptSchema>;
