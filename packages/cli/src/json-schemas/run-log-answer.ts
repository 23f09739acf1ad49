import * as z from 'zod';
import { CountSchema, InterruptionCauseSchema, NotRecordedSchema, OutcomeSchema } from '@statecraft/adapter';

/** Whether a kept file is the one the chain sealed: only a `verified` file's content is shown. */
export const KeptFileStateSchema = z.enum(['verified', 'altered', 'missing', 'not-recorded']);

/**
 * One line of the kept stream as `run log` shows it. Texts are the adapter's words, each cut at a
 * bound (`cut`); `not-an-event` is a line the supervisor's reader would not take as one.
 */
export const LogEntrySchema = z.strictObject({
  /** The line of the kept stream, from 1. */
  line: z.int().positive(),
  type: z.enum(['init', 'progress', 'refusal', 'result', 'error', 'not-an-event']),
  seq: z.union([CountSchema, NotRecordedSchema]),
  /** A progress event's kind (`message`, `tool-use`, ...), as the adapter named it. */
  kind: z.string().optional(),
  tools: z.array(z.string()).optional(),
  /** The words of the event: a message's text, a refusal's record, a result's claim, an error's message. */
  text: z.string().optional(),
  /** The command a tool call or a refusal names, when it names one. */
  command: z.string().optional(),
  cut: z.boolean(),
});

/** `statecraft run log --json`: an attempt's kept event stream as a timeline, read only once verified against its record. */
export const RunLogAnswerSchema = z.strictObject({
  target: z.string().min(1),
  runId: z.string().min(1),
  attempt: z.int().positive(),
  outcome: z.union([OutcomeSchema, NotRecordedSchema]),
  cause: z.union([InterruptionCauseSchema, NotRecordedSchema]),
  /** The prompt kept beside the chain: its start (`text`, when verified) and whether it is the file the intent sealed. */
  prompt: z.strictObject({ path: z.string().min(1), state: KeptFileStateSchema, text: z.string().optional(), cut: z.boolean() }),
  /** The kept stream: `verified` (its digest and size are the chain's) before any of it is shown. */
  stream: z.strictObject({ path: z.union([z.string().min(1), NotRecordedSchema]), state: KeptFileStateSchema, message: z.string().optional() }),
  /** Every line of a verified stream, in order; empty otherwise. */
  events: z.array(LogEntrySchema),
  /** Lines past the bound on how many are shown (`events` holds the first ones). */
  omitted: CountSchema,
  /** How many of the omitted lines are refusal events. */
  omittedRefusals: CountSchema,
});
