import * as z from 'zod';
import { RecordTimeSchema, SizedDigestSchema } from '../schema-pieces.js';
import { CapabilityListSchema } from '../capabilities.js';
import { KnownDigestSchema } from '../digest-cache.js';
import { ProtocolVersionSchema } from './version.js';

/** A hook the supervisor asks the provider to run before a tool call (provider-neutral). */
export const HookSchema = z.strictObject({
  when: z.literal('before-tool'),
  /** The tool name the hook applies to, e.g. `Bash`. */
  tool: z.string().min(1),
  /** A shell command line the provider runs; a non-zero exit of 2 blocks the call. */
  command: z.string().min(1),
});
export type Hook = z.infer<typeof HookSchema>;

/**
 * The request the supervisor writes for one attempt (R1.2). The adapter is pointed at the
 * file with `run --request <file>`; the prompt itself travels on stdin (R1.3), so the request
 * carries only its digest and length.
 */
export const RequestSchema = z.strictObject({
  protocol: ProtocolVersionSchema,
  attempt: z.strictObject({
    runId: z.string().min(1),
    number: z.int().positive(),
  }),
  workspace: z.string().startsWith('/', { message: 'must be an absolute path' }),
  baseRevision: z.string().min(1),
  capabilities: z.strictObject({
    required: CapabilityListSchema,
    preferred: CapabilityListSchema,
  }),
  limits: z.strictObject({
    /** `null`: no turn cap requested. */
    maxTurns: z.int().positive().nullable(),
    /** Tool rules allowed, in the provider-neutral form `Tool` or `Tool(pattern)`. */
    allow: z.array(z.string().min(1)),
    /** Tool rules denied; a denied call must leave a refusal record (R10.3). */
    deny: z.array(z.string().min(1)),
    /** Tools removed from the session altogether; removal leaves no refusal record. */
    removeTools: z.array(z.string().min(1)),
    hooks: z.array(HookSchema),
  }),
  deadline: z.strictObject({
    milliseconds: z.int().positive(),
    /** The wall-clock time the deadline fires, ISO 8601. */
    at: RecordTimeSchema,
  }),
  prompt: SizedDigestSchema,
  /** The provider binary the operator named; `null`: the adapter resolves its own. */
  provider: z.strictObject({ executable: z.string().min(1) }).nullable(),
  /**
   * Digests the supervisor already took, each with the identity the file had: an adapter may use
   * one for a file whose real path and identity still match instead of hashing it again (a
   * provider binary is hundreds of megabytes). Absent or unmatched: the adapter hashes.
   */
  knownDigests: z.array(KnownDigestSchema).optional(),
  /**
   * The evidence boundary the adapter will run inside (R12): `bwrap` when the supervisor's sandbox
   * lets it write only the workspace, its TMPDIR and its managed paths; `none` when nothing does.
   * An adapter may let its provider edit freely only when the boundary confines it (workspace-write).
   * Absent (a request from before the boundary): read as `none`.
   */
  boundary: z.strictObject({ mechanism: z.enum(['bwrap', 'none']) }).optional(),
});
export type Request = z.infer<typeof RequestSchema>;
