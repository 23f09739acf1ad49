import { isUtf8 } from 'node:buffer';
import { EventSchema } from '../protocol/events.js';
import type { ProtocolEvent } from '../protocol/events.js';
import { describeSchemaIssues } from '../schema-errors.js';
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
  const parsed = EventSchema.safeParse(json);
  if (!parsed.success) return { kind: 'malformed', reason: describeSchemaIssues(where, parsed.error) };
  return { kind: 'event', event: parsed.data };
}
