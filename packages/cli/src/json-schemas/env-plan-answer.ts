import * as z from 'zod';
import { PrerequisiteSchema, QualificationVerdictSchema, BoundaryPathSchema, AbsentNameSchema, PlacedNameSchema } from '@statecraft/adapter';
import { BoundaryAvailabilitySchema } from '@statecraft/environment';
import { NamedProviderSchema } from './qualification-answers.js';

const PrerequisiteCheckSchema = z.strictObject({
  prerequisite: PrerequisiteSchema,
  state: z.enum(['present', 'absent']),
  detail: z.string(),
});

const ManagedPathCollisionSchema = z.strictObject({
  /** The path as each adapter declared it (the same, or one inside the other). */
  paths: z.tuple([z.string().min(1), z.string().min(1)]),
  adapters: z.tuple([z.string().min(1), z.string().min(1)]),
});

/** One adapter's plan: its claim on its managed paths (environment's AdapterClaim) and what `env plan` adds. */
export const PlannedAdapterSchema = z.strictObject({
  name: z.string().min(1),
  version: z.string().min(1),
  managedPaths: z.array(z.string().min(1)),
  prerequisites: z.array(PrerequisiteCheckSchema),
  claim: z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('claimed'), paths: z.array(z.string().min(1)) }),
    z.strictObject({ kind: z.literal('not-claimed'), absent: z.array(PrerequisiteCheckSchema), message: z.string().min(1) }),
  ]),
  executable: z.string().min(1),
  provider: NamedProviderSchema,
  qualification: z.strictObject({ verdict: QualificationVerdictSchema, reason: z.string().min(1) }),
  environment: z.strictObject({ names: z.array(PlacedNameSchema), absent: z.array(AbsentNameSchema) }),
  /** What of the hidden homes the boundary shows this adapter's child read-only: its manifest's `readablePaths` that exist. */
  exposed: z.array(BoundaryPathSchema),
  /** The allowance this adapter contributes with the target's declaration (R9.1). */
  allowance: z.array(z.string().min(1)),
  /**
   * Whether its managed paths may be bound writable inside the evidence boundary, judged as a launch
   * judges them (R12): `refused` names the path a run would be refused for (exit 2).
   */
  managedPathCheck: z.discriminatedUnion('verdict', [
    z.strictObject({ verdict: z.literal('bindable') }),
    z.strictObject({ verdict: z.literal('refused'), path: z.string().min(1), message: z.string().min(1) }),
  ]),
});

/** `env plan --json` (R10.6, R5.4): each adapter's managed paths and prerequisites; planning writes nothing. */
export const EnvPlanAnswerSchema = z.strictObject({
  target: z.string().min(1),
  declaration: z.union([z.strictObject({ path: z.string().min(1), commands: z.array(z.string().min(1)) }), z.literal('none')]),
  verdict: z.enum(['claimed', 'not-claimed', 'refused']),
  adapters: z.array(PlannedAdapterSchema),
  collisions: z.array(ManagedPathCollisionSchema),
  message: z.string().min(1),
  /** Present only when the plan is refused (exit 2), so every verb's refusal carries a `refused` member (R11). */
  refused: z.strictObject({ message: z.string().min(1), collisions: z.array(ManagedPathCollisionSchema) }).optional(),
  wrote: z.literal('nothing'),
  /** Whether the evidence boundary (R12) can be established with the constructed PATH, and why not. */
  boundary: BoundaryAvailabilitySchema,
  /**
   * What the boundary hides of the homes (the operator's, root's, each of /home) and what it shows
   * every child of them read-only (the PATH's tools there); each adapter adds its own `exposed`,
   * and `run --expose` more.
   */
  homes: z.strictObject({ hidden: z.array(BoundaryPathSchema), exposed: z.array(BoundaryPathSchema) }),
});
