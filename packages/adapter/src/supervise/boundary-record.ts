import * as z from 'zod';

/**
 * The protected evidence boundary (R12): the shapes shared by whoever builds the sandbox profile
 * (the environment package, structurally), the mechanism that applies it (bwrap-boundary.ts), and
 * the records that keep what was applied.
 */

/** Why a path is in the profile; the profile digest replaces each path by its role. */
const BoundaryPathRoleSchema = z.enum([
  'product-home',
  /** Another mount reaching the product home's directory (a bind mount of it or of a parent), hidden as the home is. */
  'product-home-view',
  'workspace',
  'temporary-directory',
  'managed-path',
  'request',
  'test-bind',
  'authority',
  'agent-workspaces',
  /** The operator's home (HOME), hidden under an empty tmpfs the child may write: its caches, the git identity's file. */
  'operator-home',
  /** Another home (/root, each directory of /home), hidden under an empty read-only tmpfs. */
  'other-home',
  /** A path the operator exposed read-only with `--expose`. */
  'operator-exposed',
  /** A path the adapter's manifest declares its provider reads (`readablePaths`), exposed read-only. */
  'adapter-exposed',
  /** An entry of the constructed PATH inside a hidden home, exposed read-only so its programs still run. */
  'path-entry',
  /** The target repository's git directory, which the workspace's git reads, bound read-only over a home that would hide it. */
  'git-directory',
  /** What holds a program the launch runs (the adapter, its provider) inside a hidden home, bound read-only before everything else. */
  'program',
]);
export type BoundaryPathRole = z.infer<typeof BoundaryPathRoleSchema>;

export const BoundaryPathSchema = z.strictObject({ path: z.string().min(1), role: BoundaryPathRoleSchema });
export type BoundaryPath = z.infer<typeof BoundaryPathSchema>;

/**
 * What the sandbox hides and lets the child write. The homes are hidden (`operator-home`,
 * `other-home`): only what is bound back over them (the workspace, exposed paths) shows through.
 * Everything else on the root file system is readable and not writable; `readOnly` entries are bound read-only over themselves (the request,
 * handed over in the private temporary directory; an acceptance check's authority paths inside
 * the candidate's worktree, R13.5).
 */
const BoundaryProfileSchema = z.strictObject({
  hidden: z.array(BoundaryPathSchema),
  writable: z.array(BoundaryPathSchema),
  readOnly: z.array(BoundaryPathSchema),
  /** Links made again inside a hidden home: a managed path declared through a link there, leading to where it is bound. */
  links: z.array(z.strictObject({ path: z.string().min(1), target: z.string().min(1), role: BoundaryPathRoleSchema })).optional(),
  /** /proc mounted read-only (an acceptance's checks): no process inside writes another's memory through /proc/<pid>/mem. */
  checks: z.literal(true).optional(),
});
export type BoundaryProfile = z.infer<typeof BoundaryProfileSchema>;

/** One finding of the self-test run inside the sandbox before the launch (R12). */
export const ProbeCheckSchema = z.strictObject({
  check: z.enum([
    'canary-by-path',
    'canary-by-proc-root',
    'canary-by-view',
    'home-hidden',
    'write-outside',
    'write-product-home',
    'write-workspace',
    'supervisor-hidden',
    'no-capabilities',
    'descriptors-closed',
    /** The operator's keyrings out of reach: the keyring system calls filtered (seccomp-filter.ts), /proc/keys unreadable. */
    'keyrings',
  ]),
  /** True when the boundary held for this check. */
  held: z.boolean(),
  detail: z.string(),
});
export type ProbeCheck = z.infer<typeof ProbeCheckSchema>;

/** Something the boundary (or its absence) leaves open, in a sentence; named on every attempt. */
const BoundaryResidualSchema = z.strictObject({
  id: z.string().min(1),
  statement: z.string().min(1),
});
export type BoundaryResidual = z.infer<typeof BoundaryResidualSchema>;

/** The boundary an attempt ran under, carried in its posture (R6, R12). */
export const BoundaryRecordSchema = z.discriminatedUnion('mechanism', [
  z.strictObject({
    mechanism: z.literal('bwrap'),
    /** What `bwrap --version` answered. */
    version: z.string().min(1),
    /** sha256 of the sandbox's argument list, each per-attempt path replaced by its role. */
    profileDigest: z.string().regex(/^sha256:[0-9a-f]{64}$/),
    profile: BoundaryProfileSchema,
    probe: z.array(ProbeCheckSchema),
    residuals: z.array(BoundaryResidualSchema),
  }),
  z.strictObject({
    mechanism: z.literal('none'),
    /** Who turned it off: `--boundary none` or `STATECRAFT_BOUNDARY=none`. */
    chosenBy: z.string().min(1),
    version: z.literal('not-applicable'),
    profileDigest: z.literal('not-applicable'),
    probe: z.literal('not-run'),
    residuals: z.array(BoundaryResidualSchema),
  }),
]);
export type BoundaryRecord = z.infer<typeof BoundaryRecordSchema>;

/** What the bwrap profile does not deny (R12): named on every attempt that ran under it. */
export const BWRAP_RESIDUALS: readonly BoundaryResidual[] = [
  { id: 'network-reachable', statement: 'the network stays reachable (the provider talks to its API): the child can send anything it can read to anywhere' },
  {
    id: 'unix-sockets',
    statement:
      'Unix sockets stay reachable: a socket file on the read-only root file system can still be connected to, and the abstract socket namespace is shared',
  },
  {
    id: 'root-file-system-readable',
    statement:
      "everything on the root file system outside the product home and the hidden homes stays readable (system configuration, other services' files); what the operator or the adapter exposes from the home is readable too",
  },
  {
    id: 'git-read-only',
    statement: "the operator's .git is read-only inside: the agent can read git but cannot commit; the outcome records what it left uncommitted",
  },
];

/** What running without the boundary leaves open (R5.3, R12): named on every such attempt. */
const NO_BOUNDARY_RESIDUALS: readonly BoundaryResidual[] = [
  {
    id: 'records-reachable',
    statement:
      'the child runs as the operator with the product home in reach: it can read, append to, truncate or rewrite the record chain and forge qualification records',
  },
  { id: 'checkout-writable', statement: "the child can write the operator's checkout, and anything else its user can, by absolute path" },
  {
    id: 'supervisor-signalable',
    statement: "the child can signal its user's processes outside its PID namespace; under the process-group fallback, the supervisor itself",
  },
];

/** The record of an attempt run without the boundary, by `chosenBy`'s choice: nothing probed, every residual named. */
export function noBoundaryRecord(chosenBy: string): Extract<BoundaryRecord, { mechanism: 'none' }> {
  return { mechanism: 'none', chosenBy, version: 'not-applicable', profileDigest: 'not-applicable', probe: 'not-run', residuals: [...NO_BOUNDARY_RESIDUALS] };
}
