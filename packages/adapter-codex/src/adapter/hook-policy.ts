import { PermissionModeSchema } from '@statecraft/adapter';
import * as z from 'zod';

/**
 * What the adapter's PreToolUse hook enforces, handed to it inside its own command line (base64
 * JSON), so the config document stays the one private document Codex reads (R10.1) and nothing
 * else the session could rewrite holds the rules.
 */
export const HookPolicySchema = z.strictObject({
  deny: z.array(z.string()),
  allow: z.array(z.string()),
  hooks: z.array(z.strictObject({ tool: z.string(), command: z.string() })),
  /**
   * The request's applied permission mode. `strict`: `allow` is the whole allowlist, empty meaning
   * nothing beyond Codex's own edit tool (decision 0341); `sandboxed`: every call not denied runs.
   */
  mode: PermissionModeSchema,
  /** The attempt's private denial channel: the file the hook appends one record per denial to. */
  channel: z.string().startsWith('/'),
});
export type HookPolicy = z.infer<typeof HookPolicySchema>;

export function encodeHookPolicy(policy: HookPolicy): string {
  return Buffer.from(JSON.stringify(policy), 'utf8').toString('base64');
}

export function decodeHookPolicy(encoded: string): HookPolicy {
  return HookPolicySchema.parse(JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')));
}
