import { describeSchemaIssues } from '@statecraft/adapter';
import { ChainRecordSchema } from './record-schemas.js';

/**
 * A record the chain's own reader would refuse. Appending it would break the chain for every
 * later reader (`run show`, `run list`, `doctor` refuse a chain with a record they cannot read),
 * and records are never rewritten; so it is refused before a byte is written. It is a defect of
 * the writer, never of the operator's input.
 */
export class UnreadableRecordError extends Error {
  readonly path: string;
  constructor(path: string, problems: string) {
    super(
      `${path}: a record the chain's reader would refuse was not appended; nothing was written:\n${problems}\nreport this as a statecraft defect, with the field named above`,
    );
    this.name = 'UnreadableRecordError';
    this.path = path;
  }
}

/**
 * Parses a linked record with the schema the reader uses (issue 10 item 3), so the writer cannot
 * write what the reader will refuse. Throws UnreadableRecordError naming each field at fault.
 */
export function refuseUnreadableRecord(chainFile: string, record: unknown): void {
  const parsed = ChainRecordSchema.safeParse(record);
  if (parsed.success) return;
  const kind = typeof record === 'object' && record !== null && 'kind' in record ? String(record.kind) : 'unknown';
  throw new UnreadableRecordError(chainFile, describeSchemaIssues(`${kind} record`, parsed.error));
}
