import { readFileSync } from 'node:fs';
import { RequestSchema } from '../protocol/request.js';
import type { Request } from '../protocol/request.js';
import { describeSchemaIssues } from '../schema-errors.js';

export type ReadRequest = { kind: 'read'; request: Request } | { kind: 'refused'; message: string };

/**
 * The request file the supervisor wrote, read and checked against the protocol's schema (R1.2).
 * Read synchronously: the adapter has nothing else to do until it has its request, and each step
 * of an asynchronous read is a round trip through libuv's thread pool on the way to the provider's
 * start.
 */
export function readRequest(path: string): ReadRequest {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    return { kind: 'refused', message: `${path}: cannot read the request as JSON (${(error as Error).message})` };
  }
  const parsed = RequestSchema.safeParse(json);
  return parsed.success ? { kind: 'read', request: parsed.data } : { kind: 'refused', message: describeSchemaIssues(path, parsed.error) };
}
