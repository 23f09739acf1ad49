import { HangReplySchema, HttpErrorReplySchema, loadScenarioFile, loadScenarioFiles, scenarioSchemaFor } from '@statecraft/adapter';
import * as z from 'zod';

/**
 * One scripted reply of the Responses-API model double. The double answers the provider's n-th
 * request of a session with the n-th reply (n = the function calls already in its input); past
 * the end it answers `finalText`. A `hang` and an `http-error` (in the Responses API's error
 * shape) are the seam kit's.
 */
export const ScriptedReplySchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('text'), text: z.string().min(1) }),
  /** A `function_call` to `exec_command` with `{"cmd": …}` (docs/facts.md item 20), optionally asking for a tty session. */
  z.strictObject({
    kind: z.literal('exec'),
    cmd: z.string().min(1),
    /** Optional text the model says before calling the tool. */
    text: z.string().min(1).optional(),
    /** `tty: true`: a session whose stdin stays open for `write_stdin` (docs/facts.md item 31). */
    tty: z.boolean().optional(),
    /** How long codex waits for output before answering with the session still running. */
    yieldTimeMs: z.int().positive().optional(),
  }),
  /** A `custom_tool_call` to `apply_patch` with the patch as its input: Codex's own edit tool (docs/facts.md item 32). */
  z.strictObject({ kind: z.literal('apply-patch'), patch: z.string().min(1) }),
  /** A `custom_tool_call` to `exec`, Codex's JavaScript tool that calls its other tools (`await tools.exec_command(…)`, docs/facts.md item 33). */
  z.strictObject({ kind: z.literal('code'), source: z.string().min(1) }),
  /** A `function_call` to `write_stdin`: `chars` typed into the last session codex reported (its id read from the conversation). */
  z.strictObject({
    kind: z.literal('write-stdin'),
    chars: z.string(),
    yieldTimeMs: z.int().positive().optional(),
  }),
  HangReplySchema,
  HttpErrorReplySchema,
]);
export type ScriptedReply = z.infer<typeof ScriptedReplySchema>;

/** A scenario; its usage is reported on every reply (`response.completed`): Codex reports tokens, never cost. */
export const ScenarioSchema = scenarioSchemaFor(ScriptedReplySchema);
export type Scenario = z.infer<typeof ScenarioSchema>;

/** Reads and validates one scenario file; an invalid file throws (it is the test's own data). */
export function loadScenario(path: string): Promise<Scenario> {
  return loadScenarioFile(path, ScenarioSchema, 'a Codex model-double scenario');
}

/** Every scenario file in a directory (`*.json`), by name order. */
export function loadScenarios(directory: string): Promise<Scenario[]> {
  return loadScenarioFiles(directory, loadScenario);
}
