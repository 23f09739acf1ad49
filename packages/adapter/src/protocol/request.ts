import * as z from 'zod';
import { RecordTimeSchema, SizedDigestSchema } from '../schema-pieces.js';
import { CapabilityListSchema } from '../capabilities.js';
import { KnownDigestSchema } from '../digest-cache.js';
import { ProtocolVersionSchema } from './version.js';

/** What the provider may do on its own inside the evidence boundary (see `Request.permissions`). */
export const PermissionModeSchema = z.enum(['sandboxed', 'strict']);
export type PermissionMode = z.infer<typeof PermissionModeSchema>;

/** A hook the supervisor asks the provider to run before a tool call (provider-neutral). */
const HookSchema = z.strictObject({
  when: z.literal('before-tool'),
  /** The tool name the hook applies to, e.g. `Bash`. */
  tool: z.string().min(1),
  /** A shell command line the provider runs; a non-zero exit of 2 blocks the call. */
  command: z.string().min(1),
});

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
  /**
   * What the provider may do on its own inside the boundary. `sandboxed`: every tool is permitted
   * in the workspace (the boundary confines it) except what `limits.deny` denies, and `limits.allow`
   * is empty; an adapter honours it only under `boundary.mechanism` `bwrap`. `strict`: only what
   * `limits.allow` allows, beyond what the provider permits itself without asking. Absent: `strict`,
   * so a request from a supervisor that does not know the field, read by any adapter, never widens.
   */
  permissions: z.strictObject({ mode: PermissionModeSchema }).optional(),
});
export type Request = z.infer<typeof RequestSchema>;

/**
 * The mode an adapter applies: `sandboxed` only when the request asks for it, names the bwrap
 * boundary and allows nothing by rule; anything else (absent, `strict`, `sandboxed` with no
 * boundary or with allow rules) is `strict`.
 */
export function appliedPermissionMode(request: Pick<Request, 'permissions' | 'boundary' | 'limits'>): PermissionMode {
  const asked = request.permissions?.mode === 'sandboxed' && request.boundary?.mechanism === 'bwrap';
  // Allow rules mean the sender wanted only those to run: the narrower reading wins.
  return asked && request.limits.allow.length === 0 ? 'sandboxed' : 'strict';
}
