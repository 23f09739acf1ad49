import * as z from 'zod';

/**
 * One denial the adapter's PreToolUse hook made, as it writes it to the attempt's private denial
 * channel (one JSON line each). Codex itself reports a hook's block only as stderr text (docs/facts.md
 * item 22), so this record — written by the adapter's own code at the moment it denies — is what
 * makes the refusal structured (R14.2). The command is kept verbatim.
 */
export const DenialSchema = z.strictObject({
  source: z.literal('statecraft-pre-tool-use-hook'),
  /**
   * `deny-rule`: a deny rule matched; `fail-closed`: deny rules exist and the command hides what it
   * runs from them (a wrapper or a shell, a substitution), so it is denied unseen rather than let
   * through unseen; `not-allowed`: an allowlist was given and nothing in it matched; `hook`: a
   * request hook exited 2.
   */
  reason: z.enum(['deny-rule', 'fail-closed', 'not-allowed', 'hook']),
  /** Why, in a sentence: what the hook told Codex (and so the model). */
  why: z.string().min(1),
  tool_name: z.string(),
  tool_use_id: z.string().nullable(),
  tool_input: z.unknown(),
  /** The rule that denied (`deny-rule`), or null. */
  rule: z.string().nullable(),
  /** The request hook that blocked (`hook`), or null. */
  hook: z.strictObject({ command: z.string(), exit_code: z.int(), stderr: z.string() }).nullable(),
});
export type Denial = z.infer<typeof DenialSchema>;

/** A channel line that did not parse: still a refusal, carrying what was read. */
interface UnreadableDenial {
  source: 'statecraft-pre-tool-use-hook';
  unreadable: string;
}

export type ChannelEntry = Denial | UnreadableDenial;
