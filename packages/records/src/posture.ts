import * as z from 'zod';
import {
  AdapterIdentitySchema,
  BoundaryRecordSchema,
  CapabilityListSchema,
  ContainmentSchema,
  NotRecordedSchema,
  PermissionModeSchema,
  QualificationVerdictSchema,
  StoredCoverageSchema,
  SurvivorSchema,
  type RecordedCoverage,
} from '@statecraft/adapter';
import { EnvironmentRecordSchema } from '@statecraft/adapter';

/** R3.2: an adapter with no matching record runs, labelled `unqualified`; never refused for that. */
const QualificationLabelSchema = z.strictObject({
  verdict: QualificationVerdictSchema,
  /** Why, in a sentence: which record matched, or why none did. */
  reason: z.string().min(1),
  /** The id of the record that qualified the adapter, when one did (absent from older labels). */
  record: z.string().min(1).optional(),
});
export type QualificationLabel = z.infer<typeof QualificationLabelSchema>;

/**
 * The command-coverage verdict (R9.3) and what it rests on: the strict coverage record, so the
 * chain refuses a posture whose coverage the renderer could not read. `not-checked`: the
 * comparison was not made for this attempt.
 */
const CoverageVerdictSchema = StoredCoverageSchema;
export type CoverageVerdict = RecordedCoverage;

/**
 * The posture an attempt ran with (R6): carried on every intent and outcome record and in
 * every answer, so an operator never has to ask what posture a run had.
 */
export const PostureSchema = z.strictObject({
  adapter: AdapterIdentitySchema.extend({
    /** The executable that was run, as an absolute path. */
    path: z.string().min(1),
  }),
  qualification: QualificationLabelSchema,
  capabilities: z.strictObject({
    requested: z.strictObject({ required: CapabilityListSchema, preferred: CapabilityListSchema }),
    declared: CapabilityListSchema,
    /** What the init event said was applied; `not-recorded` before the spawn or with no init. */
    applied: z.union([CapabilityListSchema, NotRecordedSchema]),
    degraded: CapabilityListSchema,
    /** Declared by the manifest but not applied according to init (R2.4). */
    notApplied: CapabilityListSchema,
    unverifiableRefusalAccount: z.boolean(),
  }),
  environment: EnvironmentRecordSchema,
  /** The mechanism probed before the spawn (intent) or reported by the supervisor (outcome). */
  containment: ContainmentSchema,
  /**
   * The protected evidence boundary the attempt ran under (R12): bwrap with its probe, or `none`
   * with what that leaves open. `not-recorded` on records made before the boundary existed.
   */
  boundary: z.union([BoundaryRecordSchema, NotRecordedSchema]).default('not-recorded'),
  /**
   * What the provider was permitted on its own, as the request asked (`--permissions`): `sandboxed`
   * (every tool in the workspace but the denied ones) or `strict` (only the allowed ones beyond what
   * the provider permits itself). Whether the provider confirmed the mode shows in the applied
   * capabilities (`workspace-write`). `not-recorded` on records made before the field existed.
   */
  permissions: z.union([z.strictObject({ mode: PermissionModeSchema }), NotRecordedSchema]).default('not-recorded'),
  /** Processes alive after the kill and the reaping wait; `not-recorded` until the attempt ends. */
  survivors: z.union([z.array(SurvivorSchema), NotRecordedSchema]),
  coverage: CoverageVerdictSchema,
});
export type Posture = z.infer<typeof PostureSchema>;

/**
 * The tokens the run required that the init did not apply (R2.3, R2.4): the attempt ran without
 * them, which the manifest's declaration had promised it would not. A finding wherever the attempt
 * is shown, whatever its outcome.
 */
export function requiredNotApplied(capabilities: Posture['capabilities']): Posture['capabilities']['notApplied'] {
  return capabilities.notApplied.filter((token) => capabilities.requested.required.includes(token));
}
