import * as z from 'zod';
import { ResidualSchema } from './residuals.js';

/** Who asked for a name to be placed in the child. */
const NameOriginSchema = z.enum([
  /** The allowlist every child gets: PATH, and LANG / TZ when set. */
  'baseline',
  /** The adapter's manifest (`environment.pass`): the provider's measured credential path (R5.4). */
  'adapter',
  /** The operator, with `--pass <name>`. */
  'operator',
  /** Set by the supervisor to bind the attempt (R5.5): run id, attempt number, TMPDIR, attempt tag. */
  'supervisor',
]);

/**
 * One name the child received. A secret's value is never recorded, only the word `redacted`.
 * `why` is kept for names an adapter or the operator asked for; a baseline or supervisor name's
 * reason is fixed by its origin, and repeating it on every record would only lengthen the chain.
 */
export const PlacedNameSchema = z.strictObject({
  name: z.string().min(1),
  origin: NameOriginSchema,
  value: z.union([z.strictObject({ recorded: z.string() }), z.literal('redacted')]),
  why: z.string().min(1).optional(),
  /**
   * PATH only, and only when there were any: the operator's entries left out because they are
   * empty or relative — they would resolve against the child's working directory, the agent's
   * workspace, where a planted program would answer for the one named. `value` is what was passed.
   */
  droppedEntries: z.array(z.string()).min(1).optional(),
});
export type PlacedName = z.infer<typeof PlacedNameSchema>;

/** A name that was asked for but is not set in the operator's environment: the child runs without it (R5.4). */
export const AbsentNameSchema = z.strictObject({
  name: z.string().min(1),
  origin: NameOriginSchema,
  why: z.string().min(1),
});
export type AbsentName = z.infer<typeof AbsentNameSchema>;

/** A request to place a credential family in the child, refused on construction (R5.2). */
const EnvironmentRefusalSchema = z.strictObject({
  name: z.string().min(1),
  origin: NameOriginSchema,
  family: z.string().min(1),
  message: z.string().min(1),
});
export type EnvironmentRefusal = z.infer<typeof EnvironmentRefusalSchema>;

/**
 * `applied`: every requested name was placed. `degraded`: a requested name was not set, so the
 * child runs with less than was declared (and may fail visibly, R5.4). `refused`: a credential
 * family was requested; nothing is spawned.
 */
const EnvironmentStateSchema = z.enum(['applied', 'degraded', 'refused']);

/** What the record says about the child's environment (R5.1, R6): every name it received. */
export const EnvironmentRecordSchema = z.strictObject({
  state: EnvironmentStateSchema,
  /** Every name the child received, sorted by name; nothing else reaches it. */
  names: z.array(PlacedNameSchema),
  absent: z.array(AbsentNameSchema),
  refusals: z.array(EnvironmentRefusalSchema),
  residuals: z.array(ResidualSchema),
});
export type EnvironmentRecord = z.infer<typeof EnvironmentRecordSchema>;
