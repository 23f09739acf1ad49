import { HangReplySchema, HttpErrorReplySchema, loadScenarioFile, loadScenarioFiles, scenarioSchemaFor } from '@statecraft/adapter';
import * as z from 'zod';

/**
 * One scripted reply of the model double. The double answers the provider's n-th main-loop
 * request with the n-th reply; past the end it answers `finalText`. A `hang` and an `http-error`
 * (in the Messages API's error shape) are the seam kit's.
 */
export const ScriptedReplySchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('text'), text: z.string().min(1) }),
  z.strictObject({
    kind: z.literal('tool-use'),
    tool: z.string().min(1),
    input: z.record(z.string(), z.unknown()),
    /** Optional text the model says before calling the tool. */
    text: z.string().min(1).optional(),
  }),
  HangReplySchema,
  HttpErrorReplySchema,
]);
export type ScriptedReply = z.infer<typeof ScriptedReplySchema>;

/** A scenario; its usage is reported on every reply, and a non-zero usage is what makes the provider report a cost. */
export const ScenarioSchema = scenarioSchemaFor(ScriptedReplySchema);
export type Scenario = z.infer<typeof ScenarioSchema>;

/** Reads and validates one scenario file; an invalid file throws (it is the test's own data). */
export function loadScenario(path: string): Promise<Scenario> {
  return loadScenarioFile(path, ScenarioSchema, 'a model-double scenario');
}

/** Every scenario file in a directory (`*.json`), by name order. */
export function loadScenarios(directory: string): Promise<Scenario[]> {
  return loadScenarioFiles(directory, loadScenario);
}
