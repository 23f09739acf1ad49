import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';

/** Accepts the request and never answers: the provider waits until it is killed. */
export const HangReplySchema = z.strictObject({ kind: z.literal('hang') });

/** Answers with an HTTP error: the status, and the error's type and message in the provider's error shape. */
export const HttpErrorReplySchema = z.strictObject({
  kind: z.literal('http-error'),
  status: z.int().min(400).max(599),
  errorType: z.string().min(1),
  message: z.string().min(1),
});

/**
 * A model-double scenario around the provider's own scripted replies: the double answers the
 * provider's n-th request of a session with the n-th reply; past the end it answers `finalText`.
 */
export function scenarioSchemaFor<Reply extends z.ZodType>(reply: Reply) {
  return z.strictObject({
    name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
    description: z.string().min(1),
    replies: z.array(reply).min(1),
    /** Answered once the replies are used up (the provider asks again after a tool result). */
    finalText: z.string().min(1).default('Scenario finished.'),
    /** Token usage reported on every reply. */
    usage: z.strictObject({ inputTokens: z.int().nonnegative(), outputTokens: z.int().nonnegative() }).default({ inputTokens: 120, outputTokens: 30 }),
  });
}

/** Reads and validates one scenario file; an invalid file throws (it is the test's own data), naming `what` it is not. */
export async function loadScenarioFile<Scenario>(path: string, schema: z.ZodType<Scenario>, what: string): Promise<Scenario> {
  const json: unknown = JSON.parse(await readFile(path, 'utf8'));
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new Error(`${path}: not ${what}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** Every scenario file in a directory (`*.json`), by name order. */
export async function loadScenarioFiles<Scenario>(directory: string, load: (path: string) => Promise<Scenario>): Promise<Scenario[]> {
  const names = (await readdir(directory)).filter((name) => name.endsWith('.json')).sort();
  return Promise.all(names.map((name) => load(join(directory, name))));
}
