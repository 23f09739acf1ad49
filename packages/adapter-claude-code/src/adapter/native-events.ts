import * as z from 'zod';
import { VerbatimObjectSchema } from '@statecraft/adapter';

/**
 * The few native stream-json shapes the mapping depends on (docs/facts.md items 2–9), read loosely:
 * fields the mapping does not use are kept verbatim in `detail`, never validated away.
 */
export const NativeLineSchema = z.looseObject({ type: z.string().min(1), subtype: z.string().optional() });

export const NativeInitSchema = z.looseObject({
  type: z.literal('system'),
  subtype: z.literal('init'),
  tools: z.array(z.string()),
  model: z.string().optional(),
  permissionMode: z.string().optional(),
  cwd: z.string().optional(),
  apiKeySource: z.string().optional(),
  claude_code_version: z.string().optional(),
  session_id: z.string().optional(),
});
export type NativeInit = z.infer<typeof NativeInitSchema>;

/**
 * One entry of the terminal `permission_denials`: carried verbatim as a refusal (R10.2), so kept as
 * the very object parsed; a loose object would be a copy without any `__proto__` key claude wrote.
 */
const NativeDenialSchema = VerbatimObjectSchema.refine((denial) => denial['tool_name'] === undefined || typeof denial['tool_name'] === 'string', {
  error: 'tool_name must be a string',
  path: ['tool_name'],
});

/**
 * The terminal `result`. `subtype`, `is_error` and `permission_denials` are required: without
 * them the adapter could not say how the session ended or whether anything was refused.
 */
export const NativeResultSchema = z.looseObject({
  type: z.literal('result'),
  subtype: z.string().min(1),
  is_error: z.boolean(),
  permission_denials: z.array(NativeDenialSchema),
  terminal_reason: z.string().min(1).optional(),
  num_turns: z.int().nonnegative().optional(),
  total_cost_usd: z.number().nonnegative().optional(),
  usage: z.unknown().optional(),
});
export type NativeResult = z.infer<typeof NativeResultSchema>;

/** Assistant content blocks, for the tool names a progress event carries. */
export const NativeAssistantSchema = z.looseObject({
  type: z.literal('assistant'),
  message: z.looseObject({ content: z.array(z.looseObject({ type: z.string(), name: z.string().optional() })) }),
});
