import { isUtf8 } from 'node:buffer';
import { EventSchema } from '../protocol/events.js';
import type { ProtocolEvent } from '../protocol/events.js';
import { describeSchemaIssues } from '../schema-errors.js';
import { PROTOCOL_VERSION } from '../protocol/version.js';
import { MAX_EVENT_NESTING, mayNestDeeperThan, nestsDeeperThan } from './nesting-bound.js';
import type { SplitLine } from './line-splitter.js';

/** What one line of the stream turned out to be (R7.5). Problems are values, not exceptions. */
export type ParsedLine = { kind: 'event'; event: ProtocolEvent } | { kind: 'malformed'; reason: string } | { kind: 'read-failure'; reason: string };

/**
 * Reads one line as one protocol event: bounded in bytes, valid UTF-8, JSON bounded in nesting
 * (nesting-bound.ts), then the event schema. Each
 * failure says what was wrong, naming the zod field when the schema refused it.
 */
export function parseEventLine(line: SplitLine, lineNumber: number, maxLineBytes: number): ParsedLine {
  const where = `event stream line ${lineNumber}`;
  if (line.oversize) {
    return { kind: 'malformed', reason: `${where}: the line is ${line.lineBytes} bytes, over the limit of ${maxLineBytes} bytes` };
  }
  if (line.lineBytes === 0) return { kind: 'malformed', reason: `${where}: a blank line is not a protocol event` };
  // A fatal check, not a lenient decode: a replacement character would silently alter the evidence.
  if (!isUtf8(line.bytes)) return { kind: 'read-failure', reason: `${where}: the bytes are not valid UTF-8` };
  let json: unknown;
  try {
    json = JSON.parse(line.bytes.toString('utf8'));
  } catch (error) {
    return { kind: 'malformed', reason: `${where}: not JSON (${(error as Error).message})` };
  }
  if (mayNestDeeperThan(line.bytes, MAX_EVENT_NESTING) && nestsDeeperThan(json, MAX_EVENT_NESTING)) {
    return { kind: 'malformed', reason: `${where}: arrays and objects nested deeper than the limit of ${MAX_EVENT_NESTING} levels` };
  }
  const plain = plainProgressEvent(json);
  if (plain !== undefined) return { kind: 'event', event: plain };
  const parsed = EventSchema.safeParse(json);
  if (!parsed.success) return { kind: 'malformed', reason: describeSchemaIssues(where, parsed.error) };
  return { kind: 'event', event: parsed.data };
}

/** The progress event's fields, in the schema's order: the order its parsed value has them. */
const PROGRESS_KEYS = ['type', 'protocol', 'seq', 'kind', 'tools', 'detail'] as const;

/**
 * A progress event with every field and no other, each as the schema requires it, read without the
 * schema: almost every line of a long stream is one, and the schema's checks cost more than parsing
 * the line's JSON. It decides nothing the schema would decide otherwise: a value it returns is one
 * the schema accepts, as the schema returns it (the same fields in the same order; test:
 * plain-progress-event.test.ts); anything else (another type, a field missing, extra or of
 * another kind) is left to the schema, which accepts or names what is wrong as before.
 */
export function plainProgressEvent(json: unknown): ProtocolEvent | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const fields = json as Record<string, unknown>;
  if (fields['type'] !== 'progress' || fields['protocol'] !== PROTOCOL_VERSION) return undefined;
  const keys = Object.keys(fields);
  if (keys.length !== PROGRESS_KEYS.length || !PROGRESS_KEYS.every((key) => Object.hasOwn(fields, key))) return undefined;
  const { seq, kind, tools, detail } = fields;
  // The schema's count: an integer within the safe range, not below zero.
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) return undefined;
  if (typeof kind !== 'string' || kind.length === 0) return undefined;
  if (!Array.isArray(tools) || !tools.every((tool) => typeof tool === 'string')) return undefined;
  return { type: 'progress', protocol: PROTOCOL_VERSION, seq, kind, tools: [...tools], detail };
}
