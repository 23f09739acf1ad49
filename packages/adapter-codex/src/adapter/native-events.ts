import * as z from 'zod';

/**
 * The few `codex exec --json` shapes the mapping depends on (docs/facts.md items 21, 22), read
 * loosely: fields the mapping does not use are kept verbatim in `detail`, never validated away.
 */
export const NativeLineSchema = z.looseObject({ type: z.string().min(1) });

export const NativeThreadStartedSchema = z.looseObject({ type: z.literal('thread.started'), thread_id: z.string().min(1) });
export type NativeThreadStarted = z.infer<typeof NativeThreadStartedSchema>;

/** `item.started` / `item.updated` / `item.completed`: an item with an id and a type. */
export const NativeItemEventSchema = z.looseObject({
  type: z.enum(['item.started', 'item.updated', 'item.completed']),
  item: z.looseObject({ id: z.string(), type: z.string().min(1) }),
});

/** The turn's end as Codex reports it: tokens, no cost (item 21). */
export const NativeTurnCompletedSchema = z.looseObject({ type: z.literal('turn.completed'), usage: z.looseObject({}) });

/** A failed turn (measured: an HTTP error from the model, a stream cut after its retries). */
export const NativeTurnFailedSchema = z.looseObject({ type: z.literal('turn.failed'), error: z.looseObject({ message: z.string().optional() }) });
