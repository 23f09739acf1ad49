import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

/**
 * One scripted reply of the Responses-API model double. The double answers the provider's n-th
 * request of a session with the n-th reply (n = the function calls already in its input); past
 * the end it answers `finalText`.
 */
export const ScriptedReplySchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('text'), text: z.string().min(1) }),
  /** A `function_call` to `exec_command` with `{"cmd": …}` (docs/facts.md item 20). */
  z.strictObject({
    kind: z.literal('exec'),
    cmd: z.string().min(1),
    /** Optional text the model says before calling the tool. */
    text: z.string().min(1).optional(),
  }),
  /** Accepts the request and never answers: the provider waits until it is killed. */
  z.strictObject({ kind: z.literal('hang') }),
  /** Answers with an HTTP error in the Responses API's error shape. */
  z.strictObject({ kind: z.literal('http-error'), status: z.int().min(400).max(599), errorType: z.string().min(1), message: z.string().min(1) }),
]);
export type ScriptedReply = z.infer<typeof ScriptedReplySchema>;

export const ScenarioSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  description: z.string().min(1),
  replies: z.array(ScriptedReplySchema).min(1),
  /** Answered once the replies are used up (the provider asks again after a tool result). */
  finalText: z.string().min(1).default('Scenario finished.'),
  /** Token usage reported on every reply (`response.completed`); Codex reports tokens, never cost. */
  usage: z.strictObject({ inputTokens: z.int().nonnegative(), outputTokens: z.int().nonnegative() }).default({ inputTokens: 120, outputTokens: 30 }),
});
export type Scenario = z.infer<typeof ScenarioSchema>;

/** Reads and validates one scenario file; an invalid file throws (it is the test's own data). */
export async function loadScenario(path: string): Promise<Scenario> {
  const json: unknown = JSON.parse(await readFile(path, 'utf8'));
  const parsed = ScenarioSchema.safeParse(json);
  if (!parsed.success) throw new Error(`${path}: not a Codex model-double scenario: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** Every scenario file in a directory (`*.json`), by name order. */
export async function loadScenarios(directory: string): Promise<Scenario[]> {
  const names = (await readdir(directory)).filter((name) => name.endsWith('.json')).sort();
  return Promise.all(names.map((name) => loadScenario(join(directory, name))));
}
