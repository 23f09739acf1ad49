import * as z from 'zod';

/** A target's name is one line of JSON: a larger file at its path is not one (every reader holds to it). */
export const TARGET_NAME_BYTES = 64 * 1024;

/**
 * `target.json`, beside a target's chain: the repository its records belong to, and the key its
 * path derives to (resolve-target.ts). `run` writes it before the chain's first intent; doctor
 * checks it against the intents, and `run` reads it to protect every repository the home names.
 */
const TargetNameSchema = z.object({ path: z.string().min(1), key: z.string().min(1) });
export type TargetName = z.infer<typeof TargetNameSchema>;

/** The file's text, as `run` writes it. */
export function formatTargetName(name: TargetName): string {
  return `${JSON.stringify({ path: name.path, key: name.key })}\n`;
}

/** What a target.json holds: a target's name, or in a few plain words what stands there instead. */
export type TargetNameReading = { kind: 'read'; name: TargetName } | { kind: 'unreadable'; why: string };

/** Reads a target.json's text as a target's name (the file's own reading, bounded, is the caller's). */
export function parseTargetName(text: string): TargetNameReading {
  let named: unknown;
  try {
    named = JSON.parse(text);
  } catch {
    return { kind: 'unreadable', why: 'is not JSON' };
  }
  const parsed = TargetNameSchema.safeParse(named);
  return parsed.success ? { kind: 'read', name: parsed.data } : { kind: 'unreadable', why: 'names no repository (not a JSON object with a path and a key)' };
}
